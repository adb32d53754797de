import type { Kysely } from 'kysely';
import { tenantChain } from '../model/audit-chain.js';
import type { ActionRelease, ReleaseResult } from '../model/novarch-store.js';
import { verdictRow } from './action-queries.js';
import { appendVerdictLink, lockAuditChain } from './audit-chain-queries.js';
import { NovarchStoreError, UnknownRecordError } from './novarch-store-error.js';
import { parseSessionRow } from './parse-record-rows.js';
import type { StoreDialect } from './store-dialect.js';
import type { StoreTables } from './store-tables.js';

/**
 * Lets a judged write run, durably and in one transaction with the session's kill check: a killed
 * session's write gets a gate kill verdict instead, and never runs.
 */
export function releaseAction(
  db: Kysely<StoreTables>,
  dialect: StoreDialect,
  release: ActionRelease,
): Promise<ReleaseResult> {
  const { actionId, sessionId } = release;
  return dialect.transaction(
    db,
    async (locked) => {
      // No kill can land between this read and the release: SQLite's transaction holds the
      // write lock; PostgreSQL locks the session's row, which a kill must update.
      const sessionRow = await locked
        .selectFrom('sessions')
        .selectAll()
        .where('id', '=', sessionId)
        .$if(dialect.rowLocks, (query) => query.forUpdate())
        .executeTakeFirst();
      if (sessionRow === undefined)
        throw new UnknownRecordError('session', sessionId, `No session ${sessionId}: nothing was let run.`);
      const session = parseSessionRow(sessionRow);
      // The session's row first, then the chain's head: the order a kill takes them in too.
      const chain = tenantChain(sessionRow.tenant_id);
      await lockAuditChain(locked, chain);
      if (release.verdict !== undefined) {
        const { row } = verdictRow({ actionId, sessionId, verdict: release.verdict, source: 'judge' });
        await locked.insertInto('verdicts').values(row).execute();
        await appendVerdictLink(locked, chain, row);
      }
      if (session.killedAt !== undefined) {
        const { row } = verdictRow({
          actionId,
          sessionId,
          source: 'gate',
          verdict: {
            kind: 'kill',
            citations: {
              ruleIds: session.kill?.ruleIds ?? [],
              evidenceIds: [],
              rationale: `the session was stopped before this write could run (${session.killReason ?? 'no reason stored'}); it did not run`,
            },
          },
        });
        await locked.insertInto('verdicts').values(row).execute();
        await appendVerdictLink(locked, chain, row);
        return { released: false, session } as const;
      }
      const releasedAt = new Date().toISOString();
      const result = await locked
        .updateTable('actions')
        .set({ released_at: releasedAt })
        .where('id', '=', actionId)
        .where('session_id', '=', sessionId)
        .where('released_at', 'is', null)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) {
        throw new NovarchStoreError(`Action ${actionId} of session ${sessionId} is unknown or already ran.`);
      }
      return { released: true, releasedAt } as const;
    },
    { durable: true },
  );
}
