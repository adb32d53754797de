import type { Kysely } from 'kysely';
import { tenantChain } from '../model/audit-chain.js';
import type { ActionProposal } from '../model/novarch-store.js';
import type { ActionRecord } from '../model/records.js';
import { actionRow, insertAction, writeRefusal } from './action-queries.js';
import { listEvidence } from './evidence-queries.js';
import { UnknownRecordError } from './novarch-store-error.js';
import { parseActionRow, parseSessionRow } from './parse-record-rows.js';
import type { StoreDialect } from './store-dialect.js';
import type { StoreTables } from './store-tables.js';
import type { StoredValuePolicy } from './stored-value-policy.js';

/**
 * The first step of judging a write, in one transaction: the session's kill check, the action's
 * insert and the evidence the judge rules on (one store operation where the engine made three).
 * A killed session's write is recorded refused by the gate, in the same transaction, and not
 * judged. Not durable on its own: it lets nothing run (the pass's release is the durable commit,
 * and checks the kill again, under the session's lock).
 */
export function proposeAction(
  db: Kysely<StoreTables>,
  dialect: StoreDialect,
  storedValue: StoredValuePolicy,
  action: Omit<ActionRecord, 'id' | 'createdAt' | 'releasedAt'>,
): Promise<ActionProposal> {
  const { sessionId } = action;
  return dialect.transaction(db, async (locked) => {
    const session = await locked
      .selectFrom('sessions')
      .select(['tenant_id', 'agent_id', 'killed_at'])
      .where('id', '=', sessionId)
      .executeTakeFirst();
    if (session === undefined)
      throw new UnknownRecordError('session', sessionId, `No session ${sessionId}: nothing was judged.`);
    if (session.killed_at !== null) return refuseKilled(locked, storedValue, action, session.tenant_id);
    const row = actionRow(storedValue, action);
    const record = parseActionRow(row, 'new');
    await insertAction(locked, row, 'nothing was judged', session);
    return { open: true, action: record, evidence: await listEvidence(locked, sessionId) };
  });
}

/** A write of a session killed before it was judged: recorded with a `gate` kill saying so. */
async function refuseKilled(
  locked: Kysely<StoreTables>,
  storedValue: StoredValuePolicy,
  action: Omit<ActionRecord, 'id' | 'createdAt' | 'releasedAt'>,
  tenantId: string,
): Promise<ActionProposal> {
  const sessionRow = await locked
    .selectFrom('sessions')
    .selectAll()
    .where('id', '=', action.sessionId)
    .executeTakeFirstOrThrow();
  const session = parseSessionRow(sessionRow);
  const { sessionId, ...call } = action;
  const refused = await writeRefusal(locked, storedValue, tenantChain(tenantId), {
    sessionId,
    source: 'gate',
    call,
    citations: {
      ruleIds: session.kill?.ruleIds ?? [],
      evidenceIds: [],
      rationale: `the session was stopped before this write could be judged (${session.killReason ?? 'no reason stored'}); it did not run`,
    },
  });
  return { open: false, ...refused, session };
}
