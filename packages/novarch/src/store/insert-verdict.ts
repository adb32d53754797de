import type { Kysely, Selectable } from 'kysely';
import { VerdictConflictError } from './novarch-store-error.js';
import type { StoreTables, VerdictsTable } from './store-tables.js';

type VerdictRow = Omit<Selectable<VerdictsTable>, 'seq'>;

/** What `insertVerdict` did: stored `row`, or found the verdict of its kind stored first. */
export type InsertedVerdict = { inserted: true; row: VerdictRow } | { inserted: false; row: VerdictRow };

/**
 * Stores a verdict unless its action already has one of that kind, in the caller's transaction,
 * which holds the action's audit chain lock (`lockAuditChain`): every verdict of one tenant is
 * written under it, so the check and the insert see no other writer. The unique index of
 * migration 15 (`verdicts_one_per_kind`) is the floor under that, and `on conflict do nothing`
 * keeps a writer that bypasses the lock from failing its whole transaction.
 *
 * First verdict wins: a second verdict of a kind already stored (two servers refusing one
 * orphaned write, a retried request) stores nothing and gets the stored one back; a pass or a
 * hold of an action already killed stores nothing and throws `VerdictConflictError` (a kill is
 * final: a late judge must never let a refused write run). A kill after a pass or a hold is
 * stored: a pass takes effect only at its release, a hold only once decided.
 */
export async function insertVerdict(db: Kysely<StoreTables>, row: VerdictRow): Promise<InsertedVerdict> {
  const stored = await db
    .selectFrom('verdicts')
    .select(['id', 'action_id', 'session_id', 'kind', 'citations_json', 'source', 'decided_at', 'os_user'])
    .where('action_id', '=', row.action_id)
    .where('kind', 'in', row.kind === 'kill' ? ['kill'] : [row.kind, 'kill'])
    .orderBy('seq')
    .execute();
  const kill = stored.find((verdict) => verdict.kind === 'kill');
  if (kill !== undefined && row.kind !== 'kill') throw refusedAlready(row.action_id, row.kind, kill);
  const same = stored.find((verdict) => verdict.kind === row.kind);
  if (same !== undefined) return { inserted: false, row: same };
  const result = await db
    .insertInto('verdicts')
    .values(row)
    .onConflict((conflict) => conflict.columns(['action_id', 'kind']).doNothing())
    .executeTakeFirst();
  if (Number(result.numInsertedOrUpdatedRows ?? 0n) === 1) return { inserted: true, row };
  // Only a writer outside the chain lock gets here: read what it stored.
  const winner = await db
    .selectFrom('verdicts')
    .select(['id', 'action_id', 'session_id', 'kind', 'citations_json', 'source', 'decided_at', 'os_user'])
    .where('action_id', '=', row.action_id)
    .where('kind', '=', row.kind)
    .executeTakeFirstOrThrow();
  return { inserted: false, row: winner };
}

/** Fails (`VerdictConflictError`) when action `actionId` already has a kill verdict. */
export async function requireNotRefused(
  db: Kysely<StoreTables>,
  actionId: string,
  kind: string,
): Promise<void> {
  const kill = await db
    .selectFrom('verdicts')
    .select(['id', 'action_id', 'session_id', 'kind', 'citations_json', 'source', 'decided_at', 'os_user'])
    .where('action_id', '=', actionId)
    .where('kind', '=', 'kill')
    .executeTakeFirst();
  if (kill !== undefined) throw refusedAlready(actionId, kind, kill);
}

/** The error of a refusal of a write that was released (it ran): nothing was written. */
export function ranAlready(actionId: string, releasedAt: string): VerdictConflictError {
  return new VerdictConflictError(
    actionId,
    `Action ${actionId} already ran (its pass released it at ${releasedAt}), stored first: no refusal was recorded.`,
  );
}

function refusedAlready(actionId: string, kind: string, kill: VerdictRow): VerdictConflictError {
  const rationale = rationaleOf(kill.citations_json);
  return new VerdictConflictError(
    actionId,
    `Action ${actionId} was already refused (verdict ${kill.id} by the ${kill.source}${rationale === undefined ? '' : `: ${rationale}`}), stored first: this ${kind} was not recorded and the write does not run.`,
    kill.id,
  );
}

function rationaleOf(citationsJson: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(citationsJson);
    if (typeof parsed === 'object' && parsed !== null && 'rationale' in parsed) {
      const { rationale } = parsed;
      return typeof rationale === 'string' ? rationale.slice(0, 300) : undefined;
    }
  } catch {
    // a hand-edited row: the id says enough
  }
  return undefined;
}
