import type { Kysely } from 'kysely';
import { tenantChain } from '../model/audit-chain.js';
import type { ActionRelease, ReleaseResult } from '../model/novarch-store.js';
import { requireOwnAction, verdictRow } from './action-queries.js';
import { appendVerdictLink, headAfter, lockAuditChain } from './audit-chain-queries.js';
import { insertVerdict, requireNotRefused } from './insert-verdict.js';
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
      // The session's row first, then the chain's head: the order a kill takes them in too.
      const chain = tenantChain(sessionRow.tenant_id);
      let head = await lockAuditChain(locked, chain);
      if (sessionRow.killed_at !== null) {
        const session = parseSessionRow(sessionRow);
        await requireOwnAction(locked, sessionId, actionId, 'nothing was let run');
        if (release.verdict !== undefined) {
          const { row } = verdictRow({ actionId, sessionId, verdict: release.verdict, source: 'judge' });
          if ((await insertVerdict(locked, row)).inserted)
            head = headAfter(await appendVerdictLink(locked, chain, row, { head }));
        }
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
        if ((await insertVerdict(locked, row)).inserted)
          await appendVerdictLink(locked, chain, row, { head });
        return { released: false, session } as const;
      }
      // A write refused first (a survivor took over its dead server's judgements) never runs.
      await requireNotRefused(locked, actionId, 'pass');
      // Released first: the update returns the action's row, which the verdict's link vouches for
      // (its `released_at` is not part of that), so it need not be read again.
      const releasedAt = new Date().toISOString();
      const action = await locked
        .updateTable('actions')
        .set({ released_at: releasedAt })
        .where('id', '=', actionId)
        .where('session_id', '=', sessionId)
        .where('released_at', 'is', null)
        .returning([
          'id',
          'session_id',
          'action_type',
          'tool_name',
          'input_json',
          'context_json',
          'reasoning',
          'created_at',
        ])
        .executeTakeFirst();
      if (action === undefined) {
        throw new NovarchStoreError(`Action ${actionId} of session ${sessionId} is unknown or already ran.`);
      }
      if (release.verdict !== undefined) {
        const { row } = verdictRow({ actionId, sessionId, verdict: release.verdict, source: 'judge' });
        // A pass stored before (a retried release) is the same decision: not chained twice.
        if ((await insertVerdict(locked, row)).inserted)
          await appendVerdictLink(locked, chain, row, { head, action });
      }
      return { released: true, releasedAt } as const;
    },
    { durable: true },
  );
}
