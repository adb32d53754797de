import type { Kysely } from 'kysely';
import type { EvidenceRecord } from '../model/records.js';
import { toJsonColumn } from './json-column.js';
import { newId } from './new-id.js';
import { UnknownRecordError } from './novarch-store-error.js';
import { parseEvidenceRow } from './parse-record-rows.js';
import type { StoreTables } from './store-tables.js';
import type { StoredValuePolicy } from './stored-value-policy.js';

/** Stores a read's evidence, its input and output redacted and bounded by `storedValue`. */
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
  await db.insertInto('evidence').values(row).execute();
  return record;
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
