import type { Kysely, Selectable } from 'kysely';
import type { HoldApproval, HoldRecord, HoldStatus } from '../model/records.js';
import { waiterStaleAfterMs } from '../model/waiter-timing.js';
import { appendAuditLink, chainOfSession, lockAuditChain } from './audit-chain-queries.js';
import { holdDecisionMaterial } from './audit-record-material.js';
import { chainHoldApproval } from './hold-approval-links.js';
import { NovarchStoreError } from './novarch-store-error.js';
import { parseHoldRow } from './parse-hold-row.js';
import type { StoreTables } from './store-tables.js';

/** A decision on a hold, as `NovarchStore.decideHold` receives it. */
export interface HoldDecision {
  id: string;
  status: Exclude<HoldStatus, 'pending'>;
  decidedBy: string;
  rationale?: string | undefined;
  /** The OS account of the deciding process, stored beside `decidedBy`. */
  osUser?: string | undefined;
  /** Approve with edit: the input the write runs with (stored beside the agent's own). */
  input?: unknown;
}

/** How many times an approval retries when another approval changed the hold meanwhile. */
const MAX_APPROVAL_ATTEMPTS = 20;

const DECISIONS: ReadonlySet<string> = new Set(['approved', 'denied', 'skipped', 'timed_out']);

/**
 * Decides a pending hold exactly once, across processes: the decision is one conditional
 * `UPDATE ... WHERE status = 'pending'`, so of two racing deciders only one changes the row, and
 * both read back the same stored decision.
 *
 * An operator's decision counts only before the deadline. Past it the agent has stopped waiting
 * and refused the write (fail-closed), so a late approval is stored as `timed_out`, never as an
 * approval of a write that did not run.
 */
export async function decideHold(db: Kysely<StoreTables>, decision: HoldDecision): Promise<HoldRecord> {
  const { id, status, decidedBy } = decision;
  if (!DECISIONS.has(status)) {
    throw new NovarchStoreError(
      `A hold is decided as approved, denied, skipped or timed_out; got ${String(status)}.`,
    );
  }
  // The store's clock (the server's, through a server), never the deciding operator's.
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  // Only a hold someone still waits on can be approved: its waiter checked in recently (or, with
  // no check-in yet, it was created recently). Checked in the same conditional update as the
  // decision, so an agent gone between an operator's look and the decision is caught too.
  const staleBefore = new Date(nowMs - waiterStaleAfterMs()).toISOString();
  if (status === 'approved') {
    const current = await db.selectFrom('holds').selectAll().where('id', '=', id).executeTakeFirst();
    if (current !== undefined && current.status === 'pending' && needsApprovalList(current, decision))
      return approveWithPolicy(db, decision, staleBefore);
  }
  // Timestamps are all `toISOString()` (UTC, fixed width), so text order is time order.
  const decided = await db
    .updateTable('holds')
    .set({
      status,
      decided_at: now,
      decided_by: decidedBy,
      rationale: decision.rationale ?? null,
      decided_by_os_user: decision.osUser ?? null,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .$if(status !== 'timed_out', (query) => query.where('deadline', '>', now))
    .$if(status === 'approved', (query) =>
      query.where((eb) =>
        eb.or([
          eb('waiter_seen_at', '>', staleBefore),
          eb.and([eb('waiter_seen_at', 'is', null), eb('created_at', '>', staleBefore)]),
        ]),
      ),
    )
    .executeTakeFirst();
  return closeIfStillPending(db, decision, now, decided.numUpdatedRows > 0n);
}

/**
 * Reads the hold back after a decision; a hold still pending then is closed as `timed_out`: the
 * decision came after the deadline, or (an approval) after its agent left.
 */
async function closeIfStillPending(
  db: Kysely<StoreTables>,
  decision: HoldDecision,
  now: string,
  justDecided: boolean,
): Promise<HoldRecord> {
  const { id, status, decidedBy } = decision;
  let row = await db.selectFrom('holds').selectAll().where('id', '=', id).executeTakeFirst();
  if (row === undefined) throw new NovarchStoreError(`No hold ${id}: nothing was decided.`);
  if (justDecided) await chainDecision(db, row);
  if (row.status === 'pending') {
    // Still pending: the decision came after the deadline, or (an approval) after its agent left.
    const late = decision.rationale === undefined ? status : `${status}: ${decision.rationale}`;
    const expired = row.deadline <= now;
    const lastSeen = row.waiter_seen_at ?? row.created_at;
    const closed = await db
      .updateTable('holds')
      .set({
        status: 'timed_out',
        decided_at: now,
        decided_by: decidedBy,
        decided_by_os_user: decision.osUser ?? null,
        rationale: expired
          ? `The deadline (${row.deadline}) passed before this decision arrived (${late}).`
          : `No agent had checked in on this hold since ${lastSeen}: nothing waited to run the write, so it did not run (${late}).`,
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    row = await db.selectFrom('holds').selectAll().where('id', '=', id).executeTakeFirst();
    if (row !== undefined && closed.numUpdatedRows > 0n) await chainDecision(db, row);
  }
  return parseHoldRow(row);
}

/**
 * Appends the link of the decision just stored on `row`, in the decision's transaction (the store
 * runs `decideHold` in one): the hold's row is locked by the update, then the chain's head.
 */
async function chainDecision(
  db: Kysely<StoreTables>,
  row: Parameters<typeof holdDecisionMaterial>[0] & { session_id: string },
): Promise<void> {
  const chain = await chainOfSession(db, row.session_id, 'nothing was decided');
  await lockAuditChain(db, chain);
  await appendAuditLink(db, chain, {
    kind: 'hold_decision',
    recordId: row.id,
    material: holdDecisionMaterial(row),
  });
}

type HoldRow = Selectable<StoreTables['holds']>;

/** An approval goes through the approvals list when the hold asks several, or it edits the input. */
function needsApprovalList(row: HoldRow, decision: HoldDecision): boolean {
  return decision.input !== undefined || (row.policy_json != null && parseHoldRow(row).policy !== undefined);
}

/**
 * Adds one operator's approval to a hold that needs several (or carries an edit), in one
 * conditional update that compares the approvals list it read (a compare-and-set): of two
 * racing approvals both land, one after the other, and only the one that completes the quorum
 * decides the hold. An operator already in the list adds nothing. The last approval needed is
 * held to the same checks as a single one (before the deadline, its waiter still there).
 */
async function approveWithPolicy(
  db: Kysely<StoreTables>,
  decision: HoldDecision,
  staleBefore: string,
): Promise<HoldRecord> {
  const { id, decidedBy } = decision;
  for (let attempt = 0; attempt < MAX_APPROVAL_ATTEMPTS; attempt += 1) {
    const row = await db.selectFrom('holds').selectAll().where('id', '=', id).executeTakeFirst();
    if (row === undefined) throw new NovarchStoreError(`No hold ${id}: nothing was decided.`);
    const hold = parseHoldRow(row);
    if (hold.status !== 'pending') return hold;
    const approvals = hold.approvals ?? [];
    if (approvals.some((approval) => approval.operator === decidedBy)) return hold;
    const editText = decision.input === undefined ? undefined : JSON.stringify(decision.input);
    if (editText !== undefined && approvals.length > 0 && editText !== (row.edited_input_json ?? undefined))
      throw new NovarchStoreError(
        `Hold ${id} already has approvals of ${row.edited_input_json == null ? "the agent's input" : 'an edited input'}: an edit would approve something they did not see. Approve it as it is, or deny it.`,
      );
    const nowMs = Date.now();
    const now = new Date(nowMs).toISOString();
    const added = [
      ...approvals,
      {
        operator: decidedBy,
        at: now,
        ...(decision.rationale === undefined ? {} : { rationale: decision.rationale }),
        ...(decision.osUser === undefined ? {} : { osUser: decision.osUser }),
      },
    ];
    const complete = added.length >= (hold.policy?.approvals ?? 1);
    const result = await compareAndSetApprovals(db, row, decision, {
      added,
      editText,
      complete,
      now,
      staleBefore,
    });
    if (result.numUpdatedRows > 0n) {
      const stored = await db.selectFrom('holds').selectAll().where('id', '=', id).executeTakeFirst();
      if (stored === undefined) throw new NovarchStoreError(`No hold ${id}: nothing was decided.`);
      // Every approval is chained; the one that completes the quorum decides the hold, too.
      await chainHoldApproval(db, stored, added.length);
      if (complete) await chainDecision(db, stored);
      return parseHoldRow(stored);
    }
    const after = await db.selectFrom('holds').selectAll().where('id', '=', id).executeTakeFirst();
    if (after === undefined) throw new NovarchStoreError(`No hold ${id}: nothing was decided.`);
    // Unchanged list: the deadline passed or (the last approval) its waiter left: close it.
    if (after.status === 'pending' && after.approvals_json === row.approvals_json)
      return closeIfStillPending(db, decision, now, false);
  }
  throw new NovarchStoreError(
    `Hold ${id} changed under ${MAX_APPROVAL_ATTEMPTS} approvals in a row; nothing was stored for ${decidedBy}. Try again.`,
  );
}

/**
 * Stores `added` as the hold's approvals (and decides it when `complete`) only if its approvals
 * are still those of `row`, it is pending before its deadline and, to decide it, its waiter is
 * still there.
 */
function compareAndSetApprovals(
  db: Kysely<StoreTables>,
  row: HoldRow,
  decision: HoldDecision,
  {
    added,
    editText,
    complete,
    now,
    staleBefore,
  }: {
    added: readonly HoldApproval[];
    editText: string | undefined;
    complete: boolean;
    now: string;
    staleBefore: string;
  },
) {
  const { id, decidedBy } = decision;
  return db
    .updateTable('holds')
    .set({
      approvals_json: JSON.stringify(added),
      // The first approval makes the edit; a later one approving the same input leaves its editor.
      ...(editText === undefined || row.edited_input_json != null
        ? {}
        : { edited_input_json: editText, edited_by: decidedBy }),
      ...(complete
        ? {
            status: 'approved',
            decided_at: now,
            decided_by: decidedBy,
            rationale: decision.rationale ?? null,
            decided_by_os_user: decision.osUser ?? null,
          }
        : {}),
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('deadline', '>', now)
    .where((eb) =>
      row.approvals_json == null
        ? eb('approvals_json', 'is', null)
        : eb('approvals_json', '=', row.approvals_json),
    )
    .$if(complete, (query) =>
      query.where((eb) =>
        eb.or([
          eb('waiter_seen_at', '>', staleBefore),
          eb.and([eb('waiter_seen_at', 'is', null), eb('created_at', '>', staleBefore)]),
        ]),
      ),
    )
    .executeTakeFirst();
}
