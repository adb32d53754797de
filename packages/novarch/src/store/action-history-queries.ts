import type { Kysely } from 'kysely';
import type { HistoryField, HistoryQuery } from '../model/action-history.js';
import { UnknownRecordError } from './novarch-store-error.js';
import type { StoreDialect } from './store-dialect.js';
import type { StoreTables } from './store-tables.js';

/** The judged action a history query is answered as of: its place in the store and its scope. */
interface HistoryReference {
  seq: number;
  createdAt: string;
  sessionId: string;
  tenantId: string;
  agentId: string;
}

async function referenceOf(db: Kysely<StoreTables>, actionId: string): Promise<HistoryReference> {
  const row = await db
    .selectFrom('actions as a')
    .innerJoin('sessions as s', 's.id', 'a.session_id')
    .select(['a.seq', 'a.created_at', 'a.session_id', 's.tenant_id', 's.agent_id'])
    .where('a.id', '=', actionId)
    .executeTakeFirst();
  if (row === undefined)
    throw new UnknownRecordError('action', actionId, `No action ${actionId}: its history cannot be read.`);
  return {
    seq: Number(row.seq),
    createdAt: row.created_at,
    sessionId: row.session_id,
    tenantId: row.tenant_id,
    agentId: row.agent_id,
  };
}

/**
 * Answers one history query as of action `actionId` (see `ActionHistoryStore`): the actions of
 * the type, before it in the store's sequence, created within the window before its own
 * `created_at`, in its session, its agent's sessions or its tenant's, that match every filter.
 * One aggregate query over `actions_by_type_time` / `actions_by_session_type` (migration 10).
 */
export async function queryActionHistory(
  db: Kysely<StoreTables>,
  dialect: StoreDialect,
  actionId: string,
  query: HistoryQuery,
): Promise<number> {
  const reference = await referenceOf(db, actionId);
  const since = new Date(Date.parse(reference.createdAt) - query.windowMs).toISOString();
  let select = db
    .selectFrom('actions as a')
    .where('a.action_type', '=', query.actionType)
    .where('a.seq', '<', reference.seq)
    .where('a.created_at', '>=', since);
  if (query.scope === 'session') select = select.where('a.session_id', '=', reference.sessionId);
  else {
    const sessions = db
      .selectFrom('sessions')
      .select('id')
      .where('tenant_id', '=', reference.tenantId)
      .$if(query.scope === 'agent', (sub) => sub.where('agent_id', '=', reference.agentId));
    select = select.where('a.session_id', 'in', sessions);
  }
  if (query.filter.length > 0)
    select = select.where((eb) =>
      eb.and(
        query.filter.map((filter) => {
          if (filter.kind === 'tool') return eb('a.tool_name', '=', filter.value);
          if (filter.kind === 'released')
            // Released by the time the judged action was recorded: later releases change no answer.
            return filter.value
              ? eb.and([eb('a.released_at', 'is not', null), eb('a.released_at', '<=', reference.createdAt)])
              : eb.or([eb('a.released_at', 'is', null), eb('a.released_at', '>', reference.createdAt)]);
          const text = dialect.jsonText(columnOf(filter.field), filter.field.keys);
          return filter.value === null
            ? eb.or([eb(text, 'is', null), eb(text, '=', 'null')])
            : eb(text, '=', JSON.stringify(filter.value));
        }),
      ),
    );
  if (query.aggregate === 'sum') {
    const field = query.field;
    if (field === undefined) throw new Error('history.sum needs a field');
    const row = await select
      .select((eb) =>
        eb.fn.sum<number | string | null>(dialect.jsonNumber(columnOf(field), field.keys)).as('total'),
      )
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }
  if (query.aggregate === 'exists') {
    const row = await select.select('a.seq').limit(1).executeTakeFirst();
    return row === undefined ? 0 : 1;
  }
  const row = await select.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirst();
  return Number(row?.count ?? 0);
}

function columnOf(field: HistoryField): 'a.context_json' | 'a.input_json' {
  return field.column === 'context' ? 'a.context_json' : 'a.input_json';
}
