import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { HistoryField, HistoryFilter, HistoryKind, HistoryQuery } from '../model/action-history.js';
import { indexedValue, OVERFLOW_PATH, RECORD_PATH } from './history-field-rows.js';
import { NovarchStoreError, UnknownRecordError } from './novarch-store-error.js';
import type { StoreDialect } from './store-dialect.js';
import type { StoreTables } from './store-tables.js';

/** The judged action a history query is answered as of: its place in the store and its scope. */
export interface HistoryReference {
  seq: number;
  createdAt: string;
  sessionId: string;
  tenantId: string;
  agentId: string;
}

export async function referenceOf(db: Kysely<StoreTables>, actionId: string): Promise<HistoryReference> {
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
 * Which `history_fields` rows a query starts from (the most selective the index has): those of
 * a field filter's value, of a `tool`/`error` filter's, of the summed field, or one per record.
 */
type Driver =
  | { kind: 'field'; filter: Extract<HistoryFilter, { kind: 'field' }> }
  | { kind: 'fixed'; filter: Extract<HistoryFilter, { kind: 'tool' | 'error' }> }
  | { kind: 'summed'; path: string }
  | { kind: 'record' };

function driverOf(query: HistoryQuery): Driver {
  for (const filter of query.filter)
    if (filter.kind === 'field' && filter.value !== null) return { kind: 'field', filter };
  for (const filter of query.filter)
    if (filter.kind === 'tool' || filter.kind === 'error') return { kind: 'fixed', filter };
  if (query.aggregate === 'sum' && query.field !== undefined)
    return { kind: 'summed', path: pathOf(query.field) };
  return { kind: 'record' };
}

/**
 * Answers one history query as of action `actionId` (see `ActionHistoryStore`): the actions (or
 * evidence) of the type, before it in the store's order, recorded within the window before its
 * own `created_at`, in its session, its agent's sessions or its tenant's, that match every filter.
 *
 * One aggregate over `history_fields` (migration 12): it starts from the index entries of one
 * filter's value (e.g. the customer's), so it reads as many entries as that value has in the
 * window, not the window's; the other filters are checked on those records' stored JSON. Without
 * a filter the index holds, it reads one entry per record in the window (per number, for a sum).
 * Each branch is one range of one index that holds every column it reads (migration 17): the
 * database never looks up a `history_fields` row, only records whose JSON a filter needs.
 */
export async function queryActionHistory(
  db: Kysely<StoreTables>,
  dialect: StoreDialect,
  actionId: string,
  query: HistoryQuery,
): Promise<number> {
  checkQuery(query.kind ?? 'action', query);
  const reference = await referenceOf(db, actionId);
  const row = await historyAggregate(db, dialect, reference, query).executeTakeFirst();
  return Number(row?.answer ?? 0);
}

/**
 * The one statement that answers `query` as of `reference` (its single row's `answer`; no row
 * for an `exists` that found none). Exported for the tests of its query plan.
 */
export function historyAggregate(
  db: Kysely<StoreTables>,
  dialect: StoreDialect,
  reference: HistoryReference,
  query: HistoryQuery,
) {
  const kind = query.kind ?? 'action';
  const since = new Date(Date.parse(reference.createdAt) - query.windowMs).toISOString();
  const driver = driverOf(query);
  const source = new RecordSource(kind, dialect, reference.createdAt);
  const field = query.field;
  if (query.aggregate === 'sum' && field === undefined)
    throw new NovarchStoreError('history.sum needs a field');
  const inWindow = () => {
    let select = db
      .selectFrom('history_fields as f')
      .where('f.kind', '=', kind)
      .where('f.type', '=', query.actionType)
      .where('f.position', '<', reference.seq)
      .where('f.created_at', '>=', since);
    if (query.scope === 'session') return select.where('f.session_id', '=', reference.sessionId);
    select = select.where('f.tenant_id', '=', reference.tenantId);
    return query.scope === 'agent' ? select.where('f.agent_id', '=', reference.agentId) : select;
  };
  const rest = query.filter
    .filter((filter) => !('filter' in driver) || filter !== driver.filter)
    .map((filter) => source.matches(filter));
  // Each branch is one range of the index (an OR of two would make the database scan the type's
  // rows instead); a record is in one branch at most.
  const branch = (path: string, value: string | undefined, checks: Expression<SqlBool>[], summed: Summed) => {
    let select = inWindow().where('f.path', '=', path);
    if (value !== undefined) select = select.where('f.value', '=', value);
    // Tenant and agent scope: the number rows only (the others add nothing to a sum), which the
    // index of numbers holds by time. A session's are read from its own index (path, any value).
    if (summed === 'indexed' && query.scope !== 'session') select = select.where('f.number', 'is not', null);
    if (checks.length > 0) select = select.where(source.exists(checks));
    const number =
      query.aggregate !== 'sum' || field === undefined
        ? sql<number | null>`null`
        : summed === 'indexed'
          ? sql<number | null>`f.number`
          : source.number(field);
    return select.select(['f.record_seq', number.as('summed')]);
  };
  let branches: ReturnType<typeof branch>[];
  if (driver.kind === 'field') {
    const { filter } = driver;
    branches = [
      branch(pathOf(filter.field), indexedValue(filter.value), rest, 'read'),
      // A record with too many fields to index has only its marker: the filter is checked on its JSON.
      branch(OVERFLOW_PATH, '', [source.matches(filter), ...rest], 'read'),
    ];
  } else if (driver.kind === 'fixed') {
    // Always indexed, even for a record with too many fields: the rows found match it.
    branches = [branch(driver.filter.kind, indexedValue(driver.filter.value), rest, 'read')];
  } else if (driver.kind === 'summed') {
    branches = [branch(driver.path, undefined, rest, 'indexed'), branch(OVERFLOW_PATH, '', rest, 'read')];
  } else {
    // The record and marker rows have the value '': an equality, then the window is one range.
    branches = [branch(RECORD_PATH, '', rest, 'read')];
  }
  const [first, ...others] = branches;
  if (first === undefined) throw new NovarchStoreError('a history query has no branch');
  const rows = others.reduce((union, next) => union.unionAll(next), first).as('u');
  if (query.aggregate === 'sum')
    return db.selectFrom(rows).select((eb) => eb.fn.sum<number | string | null>('u.summed').as('answer'));
  if (query.aggregate === 'exists') return db.selectFrom(rows).select(sql<number>`1`.as('answer')).limit(1);
  return db.selectFrom(rows).select((eb) => eb.fn.countAll<number | string>().as('answer'));
}

/** Where a branch's summed number comes from: the index row's, or the record's JSON. */
type Summed = 'indexed' | 'read';

/** The stored record (`actions` or `evidence` row) of a `history_fields` row `f`, as `s`. */
class RecordSource {
  readonly #table: 'actions' | 'evidence';
  constructor(
    readonly kind: HistoryKind,
    readonly dialect: StoreDialect,
    /** When the judged action was recorded: later releases change no answer. */
    readonly asOf: string,
  ) {
    this.#table = kind === 'action' ? 'actions' : 'evidence';
  }

  /** Whether the record of `f` satisfies every check: one lookup by its primary key. */
  exists(checks: readonly Expression<SqlBool>[]): RawBuilder<SqlBool> {
    return sql<SqlBool>`exists (select 1 from ${sql.table(this.#table)} as s where s.seq = f.record_seq and ${sql.join(checks, sql` and `)})`;
  }

  /** The number at `field` in the record of `f` (NULL when absent or not a number). */
  number(field: HistoryField): RawBuilder<number | null> {
    return sql<
      number | null
    >`(select ${this.dialect.jsonNumber(columnOf(field), field.keys)} from ${sql.table(this.#table)} as s where s.seq = f.record_seq)`;
  }

  /** `filter` on the record `s`. */
  matches(filter: HistoryFilter): RawBuilder<SqlBool> {
    switch (filter.kind) {
      case 'tool':
        return sql<SqlBool>`s.tool_name = ${filter.value}`;
      case 'error':
        return sql<SqlBool>`s.is_error = ${filter.value ? 1 : 0}`;
      case 'released':
        return filter.value
          ? sql<SqlBool>`(s.released_at is not null and s.released_at <= ${this.asOf})`
          : sql<SqlBool>`(s.released_at is null or s.released_at > ${this.asOf})`;
      case 'field': {
        const text = this.dialect.jsonText(columnOf(filter.field), filter.field.keys);
        return filter.value === null
          ? sql<SqlBool>`(${text} is null or ${text} = 'null')`
          : sql<SqlBool>`${text} = ${JSON.stringify(filter.value)}`;
      }
    }
  }
}

/** A filter or field of the other kind of record is a bug of the caller (the rules check them). */
function checkQuery(kind: HistoryKind, query: HistoryQuery): void {
  const fields = [
    ...query.filter,
    ...(query.field === undefined ? [] : [{ kind: 'field', field: query.field }]),
  ];
  for (const entry of fields) {
    const wrong =
      kind === 'action'
        ? entry.kind === 'error' || ('field' in entry && entry.field.column === 'output')
        : entry.kind === 'tool' ||
          entry.kind === 'released' ||
          ('field' in entry && entry.field.column === 'context');
    if (wrong)
      throw new NovarchStoreError(
        `A history query over ${kind === 'action' ? 'actions' : 'evidence'} cannot use ${JSON.stringify(entry)}.`,
      );
  }
}

function pathOf(field: HistoryField): string {
  return `${field.column}.${field.keys.join('.')}`;
}

function columnOf(field: HistoryField): string {
  return field.column === 'context'
    ? 's.context_json'
    : field.column === 'input'
      ? 's.input_json'
      : 's.output_json';
}
