import type { Kysely } from 'kysely';
import { historyFieldEntries } from './history-field-rows.js';
import { UnknownRecordError } from './novarch-store-error.js';
import type { HistoryFieldsTable, StoreTables } from './store-tables.js';

/** The stored columns of an action that `history_fields` indexes. */
export interface IndexedAction {
  seq: number;
  session_id: string;
  action_type: string;
  tool_name: string;
  input_json: string | null;
  context_json: string;
  created_at: string;
}

/** The stored columns of evidence that `history_fields` indexes. */
export interface IndexedEvidence {
  seq: number;
  session_id: string;
  tool_name: string;
  input_json: string | null;
  output_json: string | null;
  is_error: number;
  /** The highest `actions.seq` of the store when it was stored. */
  position: number;
  created_at: string;
}

/** Whose session a record is of. */
export interface HistoryOwner {
  tenant_id: string;
  agent_id: string;
}

/** The `history_fields` rows of an action. */
export function actionFieldRows(action: IndexedAction, owner: HistoryOwner): HistoryFieldsTable[] {
  const entries = historyFieldEntries(
    { context: action.context_json, input: action.input_json },
    { tool: action.tool_name },
  );
  return entries.map((entry) => ({
    kind: 'action',
    record_seq: action.seq,
    position: action.seq,
    tenant_id: owner.tenant_id,
    agent_id: owner.agent_id,
    session_id: action.session_id,
    type: action.action_type,
    ...entry,
    created_at: action.created_at,
  }));
}

/** The `history_fields` rows of evidence. */
export function evidenceFieldRows(evidence: IndexedEvidence, owner: HistoryOwner): HistoryFieldsTable[] {
  const entries = historyFieldEntries(
    { input: evidence.input_json, output: evidence.output_json },
    { error: evidence.is_error === 1 },
  );
  return entries.map((entry) => ({
    kind: 'evidence',
    record_seq: evidence.seq,
    position: evidence.position,
    tenant_id: owner.tenant_id,
    agent_id: owner.agent_id,
    session_id: evidence.session_id,
    type: evidence.tool_name,
    ...entry,
    created_at: evidence.created_at,
  }));
}

/** Inserts `rows` in statements small enough for SQLite's limit on bound values. */
export async function insertHistoryFields(
  db: Kysely<StoreTables>,
  rows: readonly HistoryFieldsTable[],
): Promise<void> {
  const perStatement = 500; // 11 columns: 5,500 values, under SQLite's 32,766
  for (let start = 0; start < rows.length; start += perStatement)
    await db
      .insertInto('history_fields')
      .values(rows.slice(start, start + perStatement))
      .execute();
}

/** The tenant and agent of session `sessionId`, or fails: `outcome` says what was not done. */
export async function ownerOfSession(
  db: Kysely<StoreTables>,
  sessionId: string,
  outcome: string,
): Promise<HistoryOwner> {
  const owner = await db
    .selectFrom('sessions')
    .select(['tenant_id', 'agent_id'])
    .where('id', '=', sessionId)
    .executeTakeFirst();
  if (owner === undefined)
    throw new UnknownRecordError('session', sessionId, `No session ${sessionId}: ${outcome}.`);
  return owner;
}

/**
 * The tenant and agent of session `sessionId` and the highest `actions.seq` of the store, in one
 * statement (a read's evidence needs both: one round trip less on PostgreSQL), or fails.
 */
export async function ownerAndLatestAction(
  db: Kysely<StoreTables>,
  sessionId: string,
  outcome: string,
): Promise<{ owner: HistoryOwner; latestActionSeq: number }> {
  const row = await db
    .selectFrom('sessions')
    .select((eb) => [
      'tenant_id',
      'agent_id',
      eb
        .selectFrom('actions')
        .select((inner) => inner.fn.max('seq').as('seq'))
        .as('latest_action_seq'),
    ])
    .where('id', '=', sessionId)
    .executeTakeFirst();
  if (row === undefined)
    throw new UnknownRecordError('session', sessionId, `No session ${sessionId}: ${outcome}.`);
  return {
    owner: { tenant_id: row.tenant_id, agent_id: row.agent_id },
    latestActionSeq: Number(row.latest_action_seq ?? 0),
  };
}
