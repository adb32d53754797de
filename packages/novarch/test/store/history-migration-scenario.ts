import { expect } from 'vitest';
import type { NovarchDatabaseStore } from '../../src/index.js';
import type { HistoryQuery } from '../../src/model/action-history.js';
import { scope } from './conformance-context.js';

const DAY = 86_400_000;

/** The history queries a store is asked before and after migration 12 rebuilds its index. */
const QUERIES: readonly HistoryQuery[] = [
  { scope: 'tenant', aggregate: 'count', actionType: 'refund', windowMs: DAY, filter: [] },
  {
    scope: 'tenant',
    aggregate: 'count',
    actionType: 'refund',
    windowMs: DAY,
    filter: [{ kind: 'field', field: { column: 'context', keys: ['recordId'] }, value: 'c-1' }],
  },
  {
    scope: 'agent',
    aggregate: 'sum',
    actionType: 'refund',
    windowMs: DAY,
    field: { column: 'input', keys: ['amount'] },
    filter: [{ kind: 'field', field: { column: 'input', keys: ['customer_id'] }, value: 'c-1' }],
  },
  {
    scope: 'session',
    aggregate: 'exists',
    actionType: 'refund',
    windowMs: DAY,
    filter: [{ kind: 'field', field: { column: 'input', keys: ['f63'] }, value: 63 }],
  },
  {
    scope: 'tenant',
    aggregate: 'sum',
    actionType: 'refund',
    windowMs: DAY,
    field: { column: 'input', keys: ['amount'] },
    filter: [{ kind: 'tool', value: 'refund' }],
  },
  {
    scope: 'session',
    kind: 'evidence',
    aggregate: 'count',
    actionType: 'lookup',
    windowMs: DAY,
    filter: [
      { kind: 'field', field: { column: 'input', keys: ['customer_id'] }, value: 'c-1' },
      { kind: 'error', value: false },
    ],
  },
  {
    scope: 'agent',
    kind: 'evidence',
    aggregate: 'sum',
    actionType: 'lookup',
    windowMs: DAY,
    field: { column: 'output', keys: ['balance'] },
    filter: [],
  },
];

/** The answers every store gives for the records `fillHistory` stores. */
export const EXPECTED_ANSWERS = [4, 3, 16, 1, 21, 1, 130];

/**
 * Stores actions and evidence of two sessions of one agent and one of another (one action too
 * wide to index field by field), and returns the id of the action the queries are asked as of.
 */
export async function fillHistory(store: NovarchDatabaseStore): Promise<string> {
  const mine = await store.createSession(scope(), 60);
  const sameAgent = await store.createSession(scope(), 60);
  const other = await store.createSession(scope({ agentId: 'other-bot' }), 60);
  const refund = (sessionId: string, customer: string, amount: number, extra: object = {}) =>
    store.recordAction({
      sessionId,
      actionType: 'refund',
      toolName: 'refund',
      input: { ...extra, customer_id: customer, amount },
      context: { recordId: customer, summary: `refund ${amount}` },
    });
  const lookup = (sessionId: string, customer: string, isError: boolean, balance: number) => {
    const at = new Date().toISOString();
    return store.recordEvidence({
      sessionId,
      toolName: 'lookup',
      input: { customer_id: customer },
      output: { balance },
      isError,
      startedAt: at,
      finishedAt: at,
    });
  };
  const wide = Object.fromEntries(Array.from({ length: 80 }, (_, index) => [`f${index}`, index]));
  await lookup(mine.id, 'c-1', false, 100);
  await lookup(mine.id, 'c-1', true, 0);
  await lookup(sameAgent.id, 'c-2', false, 30);
  await lookup(other.id, 'c-1', false, 1000);
  await refund(mine.id, 'c-1', 10, wide);
  await refund(sameAgent.id, 'c-1', 6);
  await refund(other.id, 'c-1', 3);
  await refund(other.id, 'c-2', 2);
  const judged = await refund(mine.id, 'c-1', 1);
  return judged.id;
}

/** The answers of `store` to the queries, as of action `actionId`. */
export async function historyAnswers(store: NovarchDatabaseStore, actionId: string): Promise<number[]> {
  const answers: number[] = [];
  for (const query of QUERIES) answers.push(await store.queryActionHistory(actionId, query));
  return answers;
}

/**
 * A store written before migration 12 upgrades and answers what it answered: `open` opens the
 * store, `forgetMigration12` makes its database what Novarch 11 left (no `history_fields`, no
 * record of migration 12) with the records kept, `indexRows` counts `history_fields` rows.
 */
export async function checkHistoryMigration(options: {
  open: () => Promise<NovarchDatabaseStore>;
  forgetMigration12: () => Promise<void>;
  indexRows: () => Promise<number>;
}): Promise<void> {
  const store = await options.open();
  const judged = await fillHistory(store);
  expect(await historyAnswers(store, judged)).toEqual(EXPECTED_ANSWERS);
  await store.close();
  const rowsBefore = await options.indexRows();
  await options.forgetMigration12();
  const upgraded = await options.open();
  try {
    expect(await historyAnswers(upgraded, judged)).toEqual(EXPECTED_ANSWERS);
    expect(await options.indexRows()).toBe(rowsBefore);
  } finally {
    await upgraded.close();
  }
}
