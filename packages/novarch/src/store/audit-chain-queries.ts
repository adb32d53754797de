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

/** Where a chain ends: the position and hash of its latest link (0 and the genesis hash when empty). */
export interface AuditHead {
  position: number;
  hash: string;
}

/**
 * Takes chain `chain`'s turn, inside the caller's transaction, and returns its head: creates the
 * head row when absent and locks it, in one statement (an upsert that changes nothing still locks
 * the row on PostgreSQL; SQLite's transaction already holds the database's write lock). Call it
 * before writing the decision, so the decision's `seq` follows the chain's order, and append with
 * `appendAuditLink` in the same transaction.
 */
export async function lockAuditChain(db: Kysely<StoreTables>, chain: string): Promise<AuditHead> {
  const head = await db
    .insertInto('audit_heads')
    .values({ chain, position: 0, hash: AUDIT_GENESIS_HASH })
    .onConflict((conflict) =>
      conflict.column('chain').doUpdateSet((eb) => ({ position: eb.ref('audit_heads.position') })),
    )
    .returning(['position', 'hash'])
    .executeTakeFirst();
  if (head === undefined) throw new NovarchStoreError(`The audit chain ${chain} could not be locked.`);
  return { position: Number(head.position), hash: head.hash };
}

/**
 * Appends a link for `append` to chain `chain`, whose head the caller locked (`lockAuditChain`) in
 * this transaction: the link's position is the head's + 1 and it points to the head's hash. `head`
 * is the head as the lock (or the previous append, as `headAfter`) returned it; without it, it is read.
 */
export async function appendAuditLink(
  db: Kysely<StoreTables>,
  chain: string,
  append: AuditAppend,
  known?: AuditHead,
): Promise<AuditLink> {
  const head =
    known ??
    (await db
      .selectFrom('audit_heads')
      .select(['position', 'hash'])
      .where('chain', '=', chain)
      .executeTakeFirst());
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

/** The chain's head once `link` was appended: what the next append in the transaction starts from. */
export function headAfter(link: AuditLink): AuditHead {
  return { position: link.position, hash: link.hash };
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

/** The columns of an action that its verdicts' links vouch for (`verdictMaterial`). */
export type ChainedActionRow = Parameters<typeof verdictMaterial>[1];

/**
 * Appends the link of a verdict just written (`row`), with the action it judged: `known.action`
 * when the caller has its row (as written or read in this transaction), else read; `known.head`
 * as for `appendAuditLink`.
 */
export async function appendVerdictLink(
  db: Kysely<StoreTables>,
  chain: string,
  row: Omit<VerdictsTable, 'seq'>,
  known: { head?: AuditHead; action?: ChainedActionRow } = {},
): Promise<AuditLink> {
  const action =
    known.action ??
    (await db.selectFrom('actions').selectAll().where('id', '=', row.action_id).executeTakeFirst());
  if (action === undefined)
    throw new UnknownRecordError('action', row.action_id, `No action ${row.action_id}: no verdict recorded.`);
  return appendAuditLink(
    db,
    chain,
    { kind: 'verdict', recordId: row.id, material: verdictMaterial(row, action) },
    known.head,
  );
}
