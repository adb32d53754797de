import type { Kysely, Selectable } from 'kysely';
import { tenantChain } from '../model/audit-chain.js';
import { type AuditAppend, appendAuditLink, chainOfSession, lockAuditChain } from './audit-chain-queries.js';
import { holdApprovalId, holdApprovalMaterial, storedApprovals } from './audit-record-material.js';
import { NovarchStoreError } from './novarch-store-error.js';
import type { StoreTables } from './store-tables.js';

// Each approval of a hold gets a link of its own when it is stored (a partial approval of a
// quorum too, not only the one that decides the hold), so `verify` sees an approval edited,
// removed or added by hand, and the edited input of an approve-with-edit (with the agent's own).

type HoldRow = Selectable<StoreTables['holds']>;

/**
 * Appends the link of approval `number` just stored on `hold`, in the approval's transaction
 * (the hold's row is locked by its update, then the chain's head, as for a decision).
 */
export async function chainHoldApproval(
  db: Kysely<StoreTables>,
  hold: HoldRow,
  number: number,
): Promise<void> {
  const chain = await chainOfSession(db, hold.session_id, 'no approval was recorded');
  const action = await db
    .selectFrom('actions')
    .select('input_json')
    .where('id', '=', hold.action_id)
    .executeTakeFirst();
  const material = action && holdApprovalMaterial(hold, action, number);
  if (material === undefined)
    throw new NovarchStoreError(
      `Hold ${hold.id} has no approval ${number} (or no action) to chain (this is a bug).`,
    );
  await lockAuditChain(db, chain);
  await appendAuditLink(db, chain, {
    kind: 'hold_approval',
    recordId: holdApprovalId(hold.id, number),
    material,
  });
}

/** Holds joined to their session's tenant and their action's input: what an approval link covers. */
export function selectApprovedHolds(db: Kysely<StoreTables>) {
  return db
    .selectFrom('holds')
    .innerJoin('sessions', 'sessions.id', 'holds.session_id')
    .innerJoin('actions', 'actions.id', 'holds.action_id')
    .selectAll('holds')
    .select(['sessions.tenant_id as tenant_id', 'actions.input_json as input_json']);
}

type ApprovedHoldRow = Awaited<ReturnType<ReturnType<typeof selectApprovedHolds>['execute']>>[number];

/** The approval links a hold row should have, one per stored approval (backfill, verify). */
export function approvalAppendsOf(row: ApprovedHoldRow): { chain: string; append: AuditAppend }[] {
  const appends: { chain: string; append: AuditAppend }[] = [];
  const count = storedApprovals(row.approvals_json).length;
  for (let number = 1; number <= count; number += 1) {
    const material = holdApprovalMaterial(row, row, number);
    if (material === undefined) continue;
    appends.push({
      chain: tenantChain(row.tenant_id),
      append: { kind: 'hold_approval', recordId: holdApprovalId(row.id, number), material },
    });
  }
  return appends;
}

/**
 * Chains the approvals stored before migration 14 (which chained only decisions), so `verify`
 * covers them from then on: per tenant, in hold order, after the chain's existing links.
 */
export async function backfillHoldApprovals(db: Kysely<StoreTables>): Promise<void> {
  const rows = await selectApprovedHolds(db)
    .where('holds.approvals_json', 'is not', null)
    .orderBy('holds.seq', 'asc')
    .execute();
  const locked = new Set<string>();
  for (const row of rows) {
    for (const { chain, append } of approvalAppendsOf(row)) {
      if (!locked.has(chain)) {
        await lockAuditChain(db, chain);
        locked.add(chain);
      }
      await appendAuditLink(db, chain, append);
    }
  }
}
