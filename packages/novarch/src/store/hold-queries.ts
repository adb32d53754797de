import type { Kysely } from 'kysely';
import type { HoldFilter, HoldWaiterIdentity } from '../model/novarch-store.js';
import { HOLD_SCHEMA_VERSION, type HoldApprovalPolicy, type HoldRecord } from '../model/records.js';
import { requireOwnAction } from './action-queries.js';
import { appendAuditLink, chainOfSession, lockAuditChain } from './audit-chain-queries.js';
import { holdMaterial } from './audit-record-material.js';
import { newId } from './new-id.js';
import { NovarchStoreError, UnknownRecordError } from './novarch-store-error.js';
import { parseHoldRow } from './parse-hold-row.js';
import type { StoreTables } from './store-tables.js';
import { sessionIdsWithin } from './within-scope.js';

/** A pending hold on an action of the session (decided by `decide-hold.ts`). */
export async function createHold(
  db: Kysely<StoreTables>,
  actionId: string,
  sessionId: string,
  deadline: Date,
  policy?: HoldApprovalPolicy,
): Promise<HoldRecord> {
  if (Number.isNaN(deadline.getTime())) throw new NovarchStoreError('A hold needs a valid deadline date.');
  const row = {
    id: newId('hold'),
    schema_version: HOLD_SCHEMA_VERSION,
    action_id: actionId,
    session_id: sessionId,
    status: 'pending',
    created_at: new Date().toISOString(),
    deadline: deadline.toISOString(),
    decided_at: null,
    decided_by: null,
    rationale: null,
    waiter_seen_at: null,
    waiter_pid: null,
    waiter_host: null,
    decided_by_os_user: null,
    // Stored only when it asks more than the default (one approval by any operator).
    policy_json:
      policy === undefined || (policy.approvals <= 1 && policy.approverGroups.length === 0)
        ? null
        : JSON.stringify(checkPolicy(policy)),
  };
  const record = parseHoldRow(row, 'new');
  // Run by the store in one transaction with its audit link.
  const chain = await chainOfSession(db, sessionId, 'nothing was recorded');
  await lockAuditChain(db, chain);
  await requireOwnAction(db, sessionId, actionId, 'nothing was recorded');
  await db.insertInto('holds').values(row).execute();
  await appendAuditLink(db, chain, { kind: 'hold', recordId: row.id, material: holdMaterial(row) });
  return record;
}

export async function getHold(db: Kysely<StoreTables>, id: string): Promise<HoldRecord | undefined> {
  const row = await db.selectFrom('holds').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : parseHoldRow(row);
}

export async function listHolds(db: Kysely<StoreTables>, filter: HoldFilter): Promise<HoldRecord[]> {
  const rows = await db
    .selectFrom('holds')
    .selectAll()
    .$if(filter.status !== undefined, (query) => query.where('status', '=', filter.status ?? ''))
    .$if(filter.sessionId !== undefined, (query) => query.where('session_id', '=', filter.sessionId ?? ''))
    .$if(filter.within !== undefined, (query) =>
      query.where('session_id', 'in', sessionIdsWithin(db, filter.within ?? [])),
    )
    .orderBy('seq', 'asc')
    .execute();
  return rows.map((row) => parseHoldRow(row));
}

/** Records that a waiter still waits on the hold: only while it is pending. */
export async function checkInHoldWaiter(
  db: Kysely<StoreTables>,
  id: string,
  waiter: HoldWaiterIdentity,
): Promise<void> {
  if (!Number.isSafeInteger(waiter.pid) || waiter.pid < 0) {
    throw new NovarchStoreError(`A hold waiter's pid must be a whole number ≥ 0; got ${waiter.pid}.`);
  }
  // Only while pending: a check-in never lands on a decided hold, and never races a decision.
  const result = await db
    .updateTable('holds')
    .set({ waiter_seen_at: new Date().toISOString(), waiter_pid: waiter.pid, waiter_host: waiter.host })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (result.numUpdatedRows > 0n) return;
  const existing = await db.selectFrom('holds').select('id').where('id', '=', id).executeTakeFirst();
  if (existing === undefined)
    throw new UnknownRecordError('hold', id, `No hold ${id}: no check-in was recorded.`);
}

/** A policy as stored: a whole number of approvals ≥ 1, each group list non-empty. */
function checkPolicy(policy: HoldApprovalPolicy): HoldApprovalPolicy {
  if (!Number.isSafeInteger(policy.approvals) || policy.approvals < 1)
    throw new NovarchStoreError(`A hold needs a whole number of approvals ≥ 1; got ${policy.approvals}.`);
  for (const entry of policy.approverGroups) {
    if (entry.groups.length === 0)
      throw new NovarchStoreError(`Rule ${entry.ruleId} names no approver group for its hold.`);
  }
  return {
    approvals: policy.approvals,
    approverGroups: policy.approverGroups.map((entry) => ({
      ruleId: entry.ruleId,
      groups: [...entry.groups],
    })),
  };
}
