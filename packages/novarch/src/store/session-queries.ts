import type { Kysely } from 'kysely';
import type { SessionBinding, SessionFilter } from '../model/novarch-store.js';
import type { KillDetails, SessionRecord, SessionScope } from '../model/records.js';
import { requireOwnAction } from './action-queries.js';
import { appendAuditLink, chainOfSession, lockAuditChain } from './audit-chain-queries.js';
import { killMaterial } from './audit-record-material.js';
import { requireOwnEvidence } from './evidence-queries.js';
import { newId } from './new-id.js';
import { NovarchStoreError, UnknownRecordError } from './novarch-store-error.js';
import { osUser } from './os-user.js';
import { parseSessionRow } from './parse-record-rows.js';
import type { StoreDialect } from './store-dialect.js';
import type { StoreTables } from './store-tables.js';
import { sessionIdsWithin } from './within-scope.js';

/** A new session, with the binding of the agent key that opened it in the same transaction. */
export async function createSession(
  db: Kysely<StoreTables>,
  dialect: StoreDialect,
  scope: SessionScope,
  holdWaitSeconds: number,
  binding?: SessionBinding,
): Promise<SessionRecord> {
  if (!Number.isFinite(holdWaitSeconds) || holdWaitSeconds < 0) {
    throw new NovarchStoreError(`holdWaitSeconds must be a finite number ≥ 0; got ${holdWaitSeconds}.`);
  }
  const row = {
    id: newId('ses'),
    tenant_id: scope.tenantId,
    team_id: scope.teamId,
    agent_id: scope.agentId,
    started_at: new Date().toISOString(),
    hold_wait_seconds: holdWaitSeconds,
    killed_at: null,
    kill_reason: null,
    kill_source: null,
    kill_action_id: null,
    kill_citations_json: null,
    killed_by_os_user: null,
  };
  const record = parseSessionRow(row, 'new');
  if (binding === undefined) {
    await db.insertInto('sessions').values(row).execute();
    return record;
  }
  // One transaction: a session is never seen without the binding it was opened with.
  await dialect.transaction(db, async (locked) => {
    await locked.insertInto('sessions').values(row).execute();
    await locked
      .insertInto('session_bindings')
      .values({ session_id: row.id, agent_key_id: binding.agentKeyId, secret_hash: binding.secretHash })
      .execute();
  });
  return record;
}

export async function getSessionBinding(
  db: Kysely<StoreTables>,
  id: string,
): Promise<SessionBinding | undefined> {
  const row = await db
    .selectFrom('session_bindings')
    .select(['agent_key_id', 'secret_hash'])
    .where('session_id', '=', id)
    .executeTakeFirst();
  return row === undefined ? undefined : { agentKeyId: row.agent_key_id, secretHash: row.secret_hash };
}

export async function getSession(db: Kysely<StoreTables>, id: string): Promise<SessionRecord | undefined> {
  const row = await db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : parseSessionRow(row);
}

export async function listSessions(db: Kysely<StoreTables>, filter: SessionFilter): Promise<SessionRecord[]> {
  const rows = await db
    .selectFrom('sessions')
    .selectAll()
    .$if(filter.tenantId !== undefined, (query) => query.where('tenant_id', '=', filter.tenantId ?? ''))
    .$if(filter.agentId !== undefined, (query) => query.where('agent_id', '=', filter.agentId ?? ''))
    .$if(filter.killed === true, (query) => query.where('killed_at', 'is not', null))
    .$if(filter.killed === false, (query) => query.where('killed_at', 'is', null))
    .$if(filter.within !== undefined, (query) =>
      query.where('id', 'in', sessionIdsWithin(db, filter.within ?? [])),
    )
    .orderBy('seq', 'asc')
    .execute();
  return rows.map((row) => parseSessionRow(row));
}

/** Latches the session killed, once: a second kill (from any process) changes nothing. */
export async function killSession(
  db: Kysely<StoreTables>,
  id: string,
  reason: string,
  details: KillDetails,
): Promise<void> {
  // What the kill cites must be the session's own: another session's action or evidence
  // would show in its audit as the grounds of this kill.
  if (details.actionId !== undefined) await requireOwnAction(db, id, details.actionId, 'nothing was killed');
  await requireOwnEvidence(db, id, details.evidenceIds ?? [], 'nothing was killed');
  // The latch is set once, atomically: a second kill (from any process) changes nothing.
  const result = await db
    .updateTable('sessions')
    .set({
      killed_at: new Date().toISOString(),
      kill_reason: reason,
      kill_source: details.source,
      kill_action_id: details.actionId ?? null,
      kill_citations_json: JSON.stringify({
        ruleIds: details.ruleIds ?? [],
        evidenceIds: details.evidenceIds ?? [],
      }),
      killed_by_os_user: osUser(),
    })
    .where('id', '=', id)
    .where('killed_at', 'is', null)
    .executeTakeFirst();
  if (result.numUpdatedRows > 0n) {
    // In the kill's transaction (the store runs `killSession` in one): the session's row is
    // locked by the update, then the chain's head, the order a release takes them in too.
    const chain = await chainOfSession(db, id, 'nothing was killed');
    await lockAuditChain(db, chain);
    const killed = await db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    await appendAuditLink(db, chain, { kind: 'kill', recordId: id, material: killMaterial(killed) });
    return;
  }
  const existing = await db.selectFrom('sessions').select('id').where('id', '=', id).executeTakeFirst();
  if (existing === undefined)
    throw new UnknownRecordError('session', id, `No session ${id}: nothing was killed.`);
}
