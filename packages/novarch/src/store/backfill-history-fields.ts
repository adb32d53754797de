import type { Kysely } from 'kysely';
import { actionFieldRows, evidenceFieldRows, insertHistoryFields } from './history-field-writes.js';
import type { StoreTables } from './store-tables.js';

const BATCH = 1_000;

/**
 * Fills `history_fields` (migration 12) for the actions and evidence stored before it, in store
 * order, a batch at a time (a big store is not read into memory at once). Evidence stored before
 * has no store-wide position: its session's (`action_seq`, migration 7) stands in, and its
 * `finished_at` for the time the store recorded it.
 */
export async function backfillHistoryFields(db: Kysely<StoreTables>): Promise<void> {
  for (let after = 0; ; ) {
    const actions = await db
      .selectFrom('actions as a')
      .innerJoin('sessions as s', 's.id', 'a.session_id')
      .select([
        'a.seq',
        'a.session_id',
        'a.action_type',
        'a.tool_name',
        'a.input_json',
        'a.context_json',
        'a.created_at',
        's.tenant_id',
        's.agent_id',
      ])
      .where('a.seq', '>', after)
      .orderBy('a.seq', 'asc')
      .limit(BATCH)
      .execute();
    if (actions.length === 0) break;
    const rows = actions.flatMap((action) => actionFieldRows({ ...action, seq: Number(action.seq) }, action));
    await insertHistoryFields(db, rows);
    after = Number(actions.at(-1)?.seq);
  }
  for (let after = 0; ; ) {
    const evidence = await db
      .selectFrom('evidence as e')
      .innerJoin('sessions as s', 's.id', 'e.session_id')
      .select([
        'e.seq',
        'e.session_id',
        'e.tool_name',
        'e.input_json',
        'e.output_json',
        'e.is_error',
        'e.action_seq',
        'e.finished_at',
        's.tenant_id',
        's.agent_id',
      ])
      .where('e.seq', '>', after)
      .orderBy('e.seq', 'asc')
      .limit(BATCH)
      .execute();
    if (evidence.length === 0) break;
    const rows = evidence.flatMap((row) =>
      evidenceFieldRows(
        {
          ...row,
          seq: Number(row.seq),
          is_error: Number(row.is_error),
          position: Number(row.action_seq ?? 0),
          created_at: row.finished_at,
        },
        row,
      ),
    );
    await insertHistoryFields(db, rows);
    after = Number(evidence.at(-1)?.seq);
  }
}
