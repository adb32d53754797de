import type { Kysely } from 'kysely';
import {
  AUDIT_GENESIS_HASH,
  type AuditLink,
  type AuditLinkKind,
  auditLinkHash,
  auditRecordDigest,
  tenantChain,
} from '../model/audit-chain.js';
import { verdictMaterial } from './audit-record-material.js';
import { NovarchStoreError, UnknownRecordError } from './novarch-store-error.js';
import type { StoreTables, VerdictsTable } from './store-tables.js';

/** A decision to chain: its kind, its record id and its material (`audit-record-material.ts`). */
export interface AuditAppend {
  kind: AuditLinkKind;
  recordId: string;
  material: unknown;
}

/**
 * Takes chain `chain`'s turn, inside the caller's transaction: creates its head row when absent and
 * locks it (an UPDATE that changes nothing still locks the row on PostgreSQL; SQLite's transaction
 * already holds the database's write lock). Call it before writing the decision, so the decision's
 * `seq` follows the chain's order, and append with `appendAuditLink` in the same transaction.
 */
export async function lockAuditChain(db: Kysely<StoreTables>, chain: string): Promise<void> {
  await db
    .insertInto('audit_heads')
    .values({ chain, position: 0, hash: AUDIT_GENESIS_HASH })
    .onConflict((conflict) => conflict.column('chain').doNothing())
    .execute();
  await db
    .updateTable('audit_heads')
    .set((eb) => ({ position: eb.ref('position') }))
    .where('chain', '=', chain)
    .execute();
}

/**
 * Appends a link for `append` to chain `chain`, whose head the caller locked (`lockAuditChain`) in
 * this transaction: the link's position is the head's + 1 and it points to the head's hash.
 */
export async function appendAuditLink(
  db: Kysely<StoreTables>,
  chain: string,
  append: AuditAppend,
): Promise<AuditLink> {
  const head = await db
    .selectFrom('audit_heads')
    .select(['position', 'hash'])
    .where('chain', '=', chain)
    .executeTakeFirst();
  if (head === undefined) {
    throw new NovarchStoreError(`The audit chain ${chain} was not locked before an append (this is a bug).`);
  }
  const unsigned = {
    chain,
    position: Number(head.position) + 1,
    kind: append.kind,
    recordId: append.recordId,
    digest: auditRecordDigest(append.material),
    prevHash: head.hash,
    recordedAt: new Date().toISOString(),
  };
  const link: AuditLink = { ...unsigned, hash: auditLinkHash(unsigned) };
  await db
    .insertInto('audit_links')
    .values({
      chain,
      position: link.position,
      kind: link.kind,
      record_id: link.recordId,
      digest: link.digest,
      prev_hash: link.prevHash,
      hash: link.hash,
      recorded_at: link.recordedAt,
    })
    .execute();
  await db
    .updateTable('audit_heads')
    .set({ position: link.position, hash: link.hash })
    .where('chain', '=', chain)
    .execute();
  return link;
}

/** The chain of session `sessionId`'s tenant; fails when there is no such session. */
export async function chainOfSession(
  db: Kysely<StoreTables>,
  sessionId: string,
  outcome: string,
): Promise<string> {
  const row = await db
    .selectFrom('sessions')
    .select('tenant_id')
    .where('id', '=', sessionId)
    .executeTakeFirst();
  if (row === undefined)
    throw new UnknownRecordError('session', sessionId, `No session ${sessionId}: ${outcome}.`);
  return tenantChain(row.tenant_id);
}

/** Appends the link of a verdict just written (`row`), with the action it judged. */
export async function appendVerdictLink(
  db: Kysely<StoreTables>,
  chain: string,
  row: Omit<VerdictsTable, 'seq'>,
): Promise<void> {
  const action = await db
    .selectFrom('actions')
    .selectAll()
    .where('id', '=', row.action_id)
    .executeTakeFirst();
  if (action === undefined)
    throw new UnknownRecordError('action', row.action_id, `No action ${row.action_id}: no verdict recorded.`);
  await appendAuditLink(db, chain, {
    kind: 'verdict',
    recordId: row.id,
    material: verdictMaterial(row, action),
  });
}
