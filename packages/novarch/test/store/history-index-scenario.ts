import { CompiledQuery, type Kysely } from 'kysely';
import { expect } from 'vitest';
import type { NovarchDatabaseStore } from '../../src/index.js';
import type { HistoryQuery } from '../../src/model/action-history.js';
import { historyAggregate, referenceOf } from '../../src/store/action-history-queries.js';
import type { StoreDialect } from '../../src/store/store-dialect.js';
import type { StoreTables } from '../../src/store/store-tables.js';
import { EXPECTED_ANSWERS, fillHistory, historyAnswers } from './history-migration-scenario.js';

const DAY = 86_400_000;
const customer = { kind: 'field', field: { column: 'context', keys: ['recordId'] }, value: 'c-1' } as const;
const amount = { column: 'input', keys: ['amount'] } as const;

/** One query of each shape history conditions make, by the index it should be answered from. */
export const PLANNED_QUERIES: Readonly<Record<string, { query: HistoryQuery; index: string }>> = {
  'count of one customer, tenant': {
    query: { scope: 'tenant', aggregate: 'count', actionType: 'refund', windowMs: DAY, filter: [customer] },
    index: 'history_fields_tenant_window',
  },
  'count, no filter, agent': {
    query: { scope: 'agent', aggregate: 'count', actionType: 'refund', windowMs: DAY, filter: [] },
    index: 'history_fields_tenant_window',
  },
  'count of a tool, tenant': {
    query: {
      scope: 'tenant',
      aggregate: 'count',
      actionType: 'refund',
      windowMs: DAY,
      filter: [{ kind: 'tool', value: 'refund' }],
    },
    index: 'history_fields_tenant_window',
  },
  'sum, no filter, agent': {
    query: {
      scope: 'agent',
      aggregate: 'sum',
      actionType: 'refund',
      windowMs: DAY,
      field: amount,
      filter: [],
    },
    index: 'history_fields_tenant_numbers',
  },
  'sum, no filter, tenant': {
    query: {
      scope: 'tenant',
      aggregate: 'sum',
      actionType: 'refund',
      windowMs: DAY,
      field: amount,
      filter: [],
    },
    index: 'history_fields_tenant_numbers',
  },
  'exists of one customer, session': {
    query: { scope: 'session', aggregate: 'exists', actionType: 'refund', windowMs: DAY, filter: [customer] },
    index: 'history_fields_session_window',
  },
  'sum, no filter, session': {
    query: {
      scope: 'session',
      aggregate: 'sum',
      actionType: 'refund',
      windowMs: DAY,
      field: amount,
      filter: [],
    },
    index: 'history_fields_session_window',
  },
};

/**
 * The plan of each of `PLANNED_QUERIES` as of action `actionId`, as `explain` (the database's own
 * statement, given the compiled query) prints it.
 */
export async function historyQueryPlans(
  db: Kysely<StoreTables>,
  dialect: StoreDialect,
  actionId: string,
  explain: (query: CompiledQuery) => Promise<string>,
): Promise<Record<string, string>> {
  const reference = await referenceOf(db, actionId);
  const plans: Record<string, string> = {};
  for (const [name, { query }] of Object.entries(PLANNED_QUERIES))
    plans[name] = await explain(historyAggregate(db, dialect, reference, query).compile());
  return plans;
}

/** `query` prefixed with `prefix` (`explain query plan`), with its parameters. */
export function prefixed(prefix: string, query: CompiledQuery): CompiledQuery {
  return CompiledQuery.raw(`${prefix} ${query.sql}`, [...query.parameters]);
}

/** The indexes of `history_fields` migration 17 leaves, and those of migration 12 it replaces. */
export const COVERING_INDEXES = [
  'history_fields_session_window',
  'history_fields_tenant_numbers',
  'history_fields_tenant_window',
];

/** What migration 12 left: a store at version 16 has these, and not `COVERING_INDEXES`. */
export const MIGRATION_12_INDEXES = [
  'create index history_fields_by_tenant on history_fields (tenant_id, kind, type, path, value, created_at)',
  'create index history_fields_by_session on history_fields (session_id, kind, type, path, value, position)',
];

/**
 * A store written before migration 17 upgrades to its indexes and answers what it answered:
 * `forgetMigration17` makes the database what Novarch 16 left (the indexes of migration 12, no
 * record of 17) with the records kept; `indexNames` lists the indexes of `history_fields`.
 */
export async function checkCoveringIndexMigration(options: {
  open: () => Promise<NovarchDatabaseStore>;
  forgetMigration17: (statements: readonly string[]) => Promise<void>;
  indexNames: () => Promise<string[]>;
}): Promise<void> {
  const store = await options.open();
  const judged = await fillHistory(store);
  await store.close();
  expect(await options.indexNames()).toEqual(COVERING_INDEXES);
  await options.forgetMigration17([
    ...COVERING_INDEXES.map((name) => `drop index ${name}`),
    ...MIGRATION_12_INDEXES,
    'delete from schema_migrations where version = 17',
  ]);
  expect(await options.indexNames()).toEqual(['history_fields_by_session', 'history_fields_by_tenant']);
  const upgraded = await options.open();
  try {
    expect(await historyAnswers(upgraded, judged)).toEqual(EXPECTED_ANSWERS);
  } finally {
    await upgraded.close();
  }
  expect(await options.indexNames()).toEqual(COVERING_INDEXES);
}
