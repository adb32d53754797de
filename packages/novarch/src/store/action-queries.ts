import type { Kysely } from 'kysely';
import type { CallRefusal } from '../model/novarch-store.js';
import type { ActionRecord, VerdictRecord } from '../model/records.js';
import {
  appendVerdictLink,
  type ChainedActionRow,
  chainOfSession,
  lockAuditChain,
} from './audit-chain-queries.js';
import { requireOwnEvidence } from './evidence-queries.js';
import {
  actionFieldRows,
  type HistoryOwner,
  insertHistoryFields,
  ownerOfSession,
} from './history-field-writes.js';
import { insertVerdict, ranAlready } from './insert-verdict.js';
import { toJsonColumn } from './json-column.js';
import { newId } from './new-id.js';
import { NovarchStoreError, UnknownRecordError } from './novarch-store-error.js';
import { osUser } from './os-user.js';
import { parseActionRow, parseVerdictRow } from './parse-record-rows.js';
import type { StoreDialect } from './store-dialect.js';
import type { StoreTables } from './store-tables.js';
import { redactTextWith, type StoredValuePolicy } from './stored-value-policy.js';

/** An `actions` row for `action`, its input redacted and bounded. */
export function actionRow(
  storedValue: StoredValuePolicy,
  action: Omit<ActionRecord, 'id' | 'createdAt' | 'releasedAt'>,
) {
  return {
    id: newId('act'),
    session_id: action.sessionId,
    action_type: action.actionType,
    tool_name: action.toolName,
    input_json: toJsonColumn(storedValue(action.input), 'the action input'),
    context_json: toJsonColumn(action.context, 'the action context') ?? 'null',
    reasoning: action.reasoning === undefined ? null : redactTextWith(storedValue, action.reasoning),
    created_at: new Date().toISOString(),
    released_at: null,
  };
}

/** A `verdicts` row, checked before it is written. */
export function verdictRow(verdict: Omit<VerdictRecord, 'id' | 'decidedAt' | 'osUser'>) {
  const row = {
    id: newId('vrd'),
    action_id: verdict.actionId,
    session_id: verdict.sessionId,
    kind: verdict.verdict.kind,
    citations_json: toJsonColumn(verdict.verdict.citations, 'the verdict citations') ?? 'null',
    source: verdict.source,
    decided_at: new Date().toISOString(),
    os_user: osUser(),
  };
  return { row, record: parseVerdictRow(row, 'new') };
}

/** Run by the store in one transaction: the action and its `history_fields` rows commit together. */
export async function recordAction(
  db: Kysely<StoreTables>,
  storedValue: StoredValuePolicy,
  action: Omit<ActionRecord, 'id' | 'createdAt'>,
): Promise<ActionRecord> {
  const row = actionRow(storedValue, action);
  const record = parseActionRow(row, 'new');
  await insertAction(db, row, 'no action recorded');
  return record;
}

/** Inserts an `actions` row and its `history_fields` rows (migration 12), in the caller's transaction. */
export async function insertAction(
  db: Kysely<StoreTables>,
  row: ReturnType<typeof actionRow>,
  outcome: string,
  knownOwner?: HistoryOwner,
): Promise<void> {
  const owner = knownOwner ?? (await ownerOfSession(db, row.session_id, outcome));
  const inserted = await db.insertInto('actions').values(row).returning('seq').executeTakeFirstOrThrow();
  await insertHistoryFields(db, actionFieldRows({ ...row, seq: Number(inserted.seq) }, owner));
}

export async function recordVerdict(
  db: Kysely<StoreTables>,
  verdict: Omit<VerdictRecord, 'id' | 'decidedAt' | 'osUser'>,
): Promise<VerdictRecord> {
  const { row, record } = verdictRow(verdict);
  // Run by the store in one transaction: the verdict and its audit link commit together. The
  // chain is locked before the insert, so verdicts take `seq` values in the chain's order.
  const chain = await chainOfSession(db, verdict.sessionId, 'nothing was recorded');
  const head = await lockAuditChain(db, chain);
  // Only on an action of its own session (an action's session never changes once recorded).
  await requireOwnAction(db, verdict.sessionId, verdict.actionId, 'nothing was recorded');
  // First verdict wins (`insert-verdict.ts`): a repeat gets the stored one, unchained again.
  const stored = await insertVerdict(db, row);
  if (!stored.inserted) return parseVerdictRow(stored.row);
  await appendVerdictLink(db, chain, row, { head });
  return record;
}

/** A refused call and its kill verdict, in one transaction (the call's action recorded if new). */
export function recordRefusal(
  db: Kysely<StoreTables>,
  dialect: StoreDialect,
  storedValue: StoredValuePolicy,
  refusal: CallRefusal,
): Promise<{ action: ActionRecord; verdict: VerdictRecord }> {
  return dialect.transaction(db, async (locked) => {
    const chain = await chainOfSession(locked, refusal.sessionId, 'no refusal recorded');
    return writeRefusal(locked, storedValue, chain, refusal);
  });
}

/**
 * Writes a refused call and its kill verdict inside the caller's transaction, in which session
 * `refusal.sessionId` (of chain `chain`) exists: `recordRefusal`, and `proposeAction` for a
 * killed session's write.
 */
export async function writeRefusal(
  locked: Kysely<StoreTables>,
  storedValue: StoredValuePolicy,
  chain: string,
  refusal: CallRefusal,
): Promise<{ action: ActionRecord; verdict: VerdictRecord }> {
  const head = await lockAuditChain(locked, chain);
  let action: ActionRecord;
  let stored: ChainedActionRow;
  if (refusal.actionId !== undefined) {
    const row = await locked
      .selectFrom('actions')
      .selectAll()
      .where('id', '=', refusal.actionId)
      .where('session_id', '=', refusal.sessionId)
      .executeTakeFirst();
    if (row === undefined)
      throw new UnknownRecordError(
        'action',
        refusal.actionId,
        `No action ${refusal.actionId} in session ${refusal.sessionId}: no refusal recorded.`,
      );
    // A write that ran was decided by its pass: a refusal now would say what did not happen.
    if (row.released_at !== null) throw ranAlready(row.id, row.released_at);
    action = parseActionRow(row);
    stored = row;
  } else if (refusal.call !== undefined) {
    const row = actionRow(storedValue, { ...refusal.call, sessionId: refusal.sessionId });
    action = parseActionRow(row, 'new');
    await insertAction(locked, row, 'no refusal recorded');
    stored = row;
  } else {
    throw new NovarchStoreError('A refused call needs its action id or the call itself.');
  }
  await requireOwnEvidence(locked, refusal.sessionId, refusal.citations.evidenceIds, 'no refusal recorded');
  const { row, record } = verdictRow({
    actionId: action.id,
    sessionId: refusal.sessionId,
    source: refusal.source,
    verdict: { kind: 'kill', citations: refusal.citations },
  });
  // Two refusals of one write (two servers reaping one dead server's orphans): the first stands.
  const inserted = await insertVerdict(locked, row);
  if (!inserted.inserted) return { action, verdict: parseVerdictRow(inserted.row) };
  await appendVerdictLink(locked, chain, row, { head, action: stored });
  return { action, verdict: record };
}

/** Fails unless `actionId` is an action of session `sessionId`. */
export async function requireOwnAction(
  db: Kysely<StoreTables>,
  sessionId: string,
  actionId: string,
  outcome: string,
): Promise<void> {
  const found = await db
    .selectFrom('actions')
    .select('id')
    .where('id', '=', actionId)
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  if (found === undefined)
    throw new UnknownRecordError(
      'action',
      actionId,
      `No action ${actionId} in session ${sessionId}: ${outcome}.`,
    );
}
