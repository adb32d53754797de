import type { Kysely } from 'kysely';
import type { EvidenceRecord } from '../model/records.js';
import { UnknownRecordError } from './novarch-store-error.js';
import { parseEvidenceRow } from './parse-record-rows.js';
import type { StoreTables } from './store-tables.js';

/**
 * Inserts an `evidence` row with its `action_seq` (migration 7): the highest `actions.seq` of its
 * session at the moment of the insert, read in the same statement, so no clock orders it.
 */
export async function insertEvidenceRow(
  db: Kysely<StoreTables>,
  row: Omit<StoreTables['evidence'], 'seq' | 'action_seq'>,
): Promise<void> {
  await db
    .insertInto('evidence')
    .values((eb) => ({
      ...row,
      action_seq: eb
        .selectFrom('actions')
        .select((inner) => inner.fn.coalesce(inner.fn.max('seq'), inner.lit(0)).as('latest'))
        .where('session_id', '=', row.session_id),
    }))
    .execute();
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
