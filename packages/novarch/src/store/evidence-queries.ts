import type { Kysely } from 'kysely';
import type { EvidenceRecord } from '../model/records.js';
import { evidenceFieldRows, insertHistoryFields, ownerAndLatestAction } from './history-field-writes.js';
import { toJsonColumn } from './json-column.js';
import { newId } from './new-id.js';
import { UnknownRecordError } from './novarch-store-error.js';
import { parseEvidenceRow } from './parse-record-rows.js';
import type { StoreTables } from './store-tables.js';
import type { StoredValuePolicy } from './stored-value-policy.js';

/**
 * Stores a read's evidence, its input and output redacted and bounded by `storedValue`, and its
 * `history_fields` rows (migration 12), in the caller's transaction.
 */
export async function recordEvidence(
  db: Kysely<StoreTables>,
  storedValue: StoredValuePolicy,
  evidence: Omit<EvidenceRecord, 'id'>,
): Promise<EvidenceRecord> {
  const row = {
    id: newId('evd'),
    session_id: evidence.sessionId,
    tool_name: evidence.toolName,
    input_json: toJsonColumn(storedValue(evidence.input), 'the evidence input'),
    output_json: toJsonColumn(storedValue(evidence.output), 'the evidence output'),
    is_error: evidence.isError ? 1 : 0,
    started_at: evidence.startedAt,
    finished_at: evidence.finishedAt,
  };
  // Parse before writing: a row that could not be read back must not be stored.
  const record = parseEvidenceRow(row, 'new');
  // Its place among all actions of the store (history reads other sessions' evidence too): the
  // highest `actions.seq`, read with the session's owner in this transaction, one statement for
  // both; an action another transaction commits meanwhile is concurrent with this read either way.
  const { owner, latestActionSeq } = await ownerAndLatestAction(db, row.session_id, 'no evidence recorded');
  // With its `action_seq` (migration 7): the highest `actions.seq` of its session at the moment
  // of the insert, read in the same statement, so the store's order, not a clock, places it.
  const inserted = await db
    .insertInto('evidence')
    .values((eb) => ({
      ...row,
      action_seq: eb
        .selectFrom('actions')
        .select((inner) => inner.fn.coalesce(inner.fn.max('seq'), inner.lit(0)).as('latest'))
        .where('session_id', '=', row.session_id),
    }))
    .returning('seq')
    .executeTakeFirstOrThrow();
  await insertHistoryFields(
    db,
    evidenceFieldRows(
      {
        ...row,
        seq: Number(inserted.seq),
        position: latestActionSeq,
        created_at: new Date().toISOString(),
      },
      owner,
    ),
  );
  return record;
}

/**
 * The evidence of an action's session stored before the action, oldest first: `action_seq` below
 * the action's `seq`. A row without `action_seq` (stored by a Novarch older than migration 7 into a
 * migrated store) is placed by its timestamps, the order such a row has.
 */
export async function listEvidenceBefore(
  db: Kysely<StoreTables>,
  actionId: string,
): Promise<EvidenceRecord[]> {
  const action = await db
    .selectFrom('actions')
    .select(['seq', 'session_id', 'created_at'])
    .where('id', '=', actionId)
    .executeTakeFirst();
  if (action === undefined)
    throw new UnknownRecordError('action', actionId, `No action ${actionId}: no evidence to list.`);
  const rows = await db
    .selectFrom('evidence')
    .selectAll()
    .where('session_id', '=', action.session_id)
    .where((eb) =>
      eb.or([
        eb('action_seq', '<', action.seq),
        eb.and([eb('action_seq', 'is', null), eb('finished_at', '<=', action.created_at)]),
      ]),
    )
    .orderBy('seq', 'asc')
    .execute();
  return rows.map((row) => parseEvidenceRow(row));
}

export async function listEvidence(db: Kysely<StoreTables>, sessionId: string): Promise<EvidenceRecord[]> {
  const rows = await db
    .selectFrom('evidence')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('seq', 'asc')
    .execute();
  return rows.map((row) => parseEvidenceRow(row));
}

/** Fails unless every id of `evidenceIds` is evidence of session `sessionId`. */
export async function requireOwnEvidence(
  db: Kysely<StoreTables>,
  sessionId: string,
  evidenceIds: readonly string[],
  outcome: string,
): Promise<void> {
  const wanted = [...new Set(evidenceIds)];
  if (wanted.length === 0) return;
  const found = await db
    .selectFrom('evidence')
    .select('id')
    .where('id', 'in', wanted)
    .where('session_id', '=', sessionId)
    .execute();
  if (found.length === wanted.length) return;
  const known = new Set(found.map((row) => row.id));
  const missing = wanted.filter((id) => !known.has(id));
  throw new UnknownRecordError(
    'evidence',
    missing.join(', '),
    `No evidence ${missing.join(', ')} in session ${sessionId}: ${outcome}.`,
  );
}
