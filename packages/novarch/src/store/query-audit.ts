import type { Kysely } from 'kysely';
import type { AuditEntry, AuditFilter } from '../model/novarch-store.js';
import type { HoldRecord, VerdictRecord } from '../model/records.js';
import { NovarchStoreError } from './novarch-store-error.js';
import { parseHoldRow } from './parse-hold-row.js';
import { parseActionRow, parseSessionRow, parseVerdictRow } from './parse-record-rows.js';
import type { StoreTables } from './store-tables.js';
import { sessionIdsWithin } from './within-scope.js';

/** What `since` and `until` must look like: compared as text with the stored `toISOString()` times. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * The audit trail: actions with their session, verdicts (oldest first; `verdict` the latest) and hold. With `limit`, the most
 * recent `limit` actions; entries come oldest first either way. `verdict` filters on an action's
 * latest verdict (an action without one matches no verdict filter).
 */
export async function queryAudit(db: Kysely<StoreTables>, filter: AuditFilter = {}): Promise<AuditEntry[]> {
  const { limit } = filter;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw new NovarchStoreError(`Audit limit must be a positive integer; got ${limit}.`);
  }
  for (const bound of ['since', 'until'] as const) {
    const value = filter[bound];
    if (value !== undefined && !ISO_UTC.test(value)) {
      throw new NovarchStoreError(
        `Audit ${bound} must be an ISO-8601 UTC time as Date.toISOString() writes it (e.g. 2026-05-01T00:00:00.000Z); got ${JSON.stringify(value)}.`,
      );
    }
  }
  // One snapshot for all reads, so a write landing in between cannot shift the `limit` window.
  // (SQLite transactions are snapshots anyway; PostgreSQL needs `repeatable read` for that.)
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute((transaction) => readAudit(transaction, filter, limit));
}

async function readAudit(
  db: Kysely<StoreTables>,
  filter: AuditFilter,
  limit: number | undefined,
): Promise<AuditEntry[]> {
  const matching = matchingActionIds(db, filter, limit);
  const actionRows = await db
    .selectFrom('actions')
    .selectAll()
    .where('id', 'in', matching)
    .orderBy('seq', 'asc')
    .execute();
  if (actionRows.length === 0) return [];
  const sessionsOfMatching = db
    .selectFrom('actions')
    .select('actions.session_id')
    .where('actions.id', 'in', matching);
  const [sessionRows, verdictRows, holdRows] = await Promise.all([
    db.selectFrom('sessions').selectAll().where('id', 'in', sessionsOfMatching).execute(),
    db.selectFrom('verdicts').selectAll().where('action_id', 'in', matching).orderBy('seq', 'asc').execute(),
    db.selectFrom('holds').selectAll().where('action_id', 'in', matching).execute(),
  ]);

  const sessions = new Map(sessionRows.map((row) => [row.id, parseSessionRow(row)]));
  const verdictsOf = new Map<string, VerdictRecord[]>();
  for (const row of verdictRows) {
    const verdicts = verdictsOf.get(row.action_id) ?? [];
    verdicts.push(parseVerdictRow(row));
    verdictsOf.set(row.action_id, verdicts);
  }
  const holds = new Map<string, HoldRecord>(holdRows.map((row) => [row.action_id, parseHoldRow(row)]));

  return actionRows.map((row) => {
    const action = parseActionRow(row);
    const session = sessions.get(action.sessionId);
    if (session === undefined) {
      throw new NovarchStoreError(
        `Action ${action.id} names session ${action.sessionId}, which is not stored.`,
      );
    }
    const verdicts = verdictsOf.get(action.id) ?? [];
    const verdict = verdicts.at(-1);
    const hold = holds.get(action.id);
    return {
      action,
      session,
      ...(verdict === undefined ? {} : { verdict }),
      verdicts,
      ...(hold === undefined ? {} : { hold }),
    };
  });
}

/**
 * The ids of the actions `filter` matches (the latest `limit` of them), as a subquery the other
 * queries reuse: no parameter lists that grow with the trail.
 */
function matchingActionIds(db: Kysely<StoreTables>, filter: AuditFilter, limit: number | undefined) {
  return (
    db
      .selectFrom('actions')
      .innerJoin('sessions', 'sessions.id', 'actions.session_id')
      .select('actions.id')
      .$if(filter.tenantId !== undefined, (query) =>
        query.where('sessions.tenant_id', '=', filter.tenantId ?? ''),
      )
      .$if(filter.within !== undefined, (query) =>
        query.where('sessions.id', 'in', sessionIdsWithin(db, filter.within ?? [])),
      )
      .$if(filter.teamId !== undefined, (query) => query.where('sessions.team_id', '=', filter.teamId ?? ''))
      .$if(filter.agentId !== undefined, (query) =>
        query.where('sessions.agent_id', '=', filter.agentId ?? ''),
      )
      // Timestamps are all `toISOString()` (UTC, fixed width), so text order is time order.
      .$if(filter.since !== undefined, (query) => query.where('actions.created_at', '>=', filter.since ?? ''))
      .$if(filter.until !== undefined, (query) => query.where('actions.created_at', '<', filter.until ?? ''))
      .$if(filter.sessionId !== undefined, (query) =>
        query.where('actions.session_id', '=', filter.sessionId ?? ''),
      )
      .$if(filter.verdict !== undefined, (query) =>
        query.where(
          (expression) =>
            expression
              .selectFrom('verdicts')
              .select('verdicts.kind')
              .whereRef('verdicts.action_id', '=', 'actions.id')
              .orderBy('verdicts.seq', 'desc')
              .limit(1),
          '=',
          filter.verdict ?? '',
        ),
      )
      .orderBy('actions.seq', 'desc')
      .$if(limit !== undefined, (query) => query.limit(limit ?? 0))
  );
}
