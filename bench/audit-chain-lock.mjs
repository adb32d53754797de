// @ts-check
// What the per-tenant audit chain lock costs concurrent decisions on PostgreSQL. Every verdict,
// approval and hold decision of a tenant takes its chain's head row (`lockAuditChain`) in its
// transaction, so one tenant's decisions are appended one at a time. Side by side in one run, on one
// embedded PostgreSQL 18: `--workers` sessions deciding at once, all of ONE tenant (one chain: they
// queue on its head), and the same sessions spread over as many tenants (no two share a chain).
// Each worker records `--decisions` writes, each an action + its verdict, and every 4th one a hold
// approved by two operators (two approval links and a decision link). Rounds alternate the layouts.
// Prints per-decision latency (p50/p99 of recordVerdict and decideHold) and decisions per second,
// with the load average at start and end. Exits 0.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { startPostgres } from '@holodeck/testkit/postgres';
import { openPostgresStore } from '../packages/novarch/dist/index.js';
import { integerOption, table } from './bench-format.mjs';

const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: '8' },
    decisions: { type: 'string', default: '40' },
    rounds: { type: 'string', default: '2' },
  },
});
const workers = integerOption(values, 'workers', 1);
const decisions = integerOption(values, 'decisions', 1);
const rounds = integerOption(values, 'rounds', 1);

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const percentile = (list, p) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

/** One worker: a session of `tenantId` recording `decisions` verdicts (and some approved holds). */
async function worker(store, tenantId, timings) {
  const session = await store.createSession({ tenantId, teamId: 'support', agentId: 'bot' }, 600);
  for (let index = 0; index < decisions; index += 1) {
    const action = await store.recordAction({
      sessionId: session.id,
      actionType: 'refund',
      toolName: 'refund',
      input: { amount: index },
      context: { recordId: `c-${index}`, summary: 'refund', amount: index },
      reasoning: 'asked',
    });
    const held = index % 4 === 3;
    let started = performance.now();
    await store.recordVerdict({
      actionId: action.id,
      sessionId: session.id,
      source: 'judge',
      verdict: {
        kind: held ? 'hold' : 'pass',
        citations: { ruleIds: ['R-1'], evidenceIds: [], rationale: held ? 'big' : 'ok' },
      },
    });
    timings.verdict.push(performance.now() - started);
    if (!held) continue;
    const hold = await store.createHold(action.id, session.id, new Date(Date.now() + 600_000), {
      approvals: 2,
      approverGroups: [],
    });
    for (const operator of ['ana', 'bo']) {
      started = performance.now();
      await store.decideHold(hold.id, 'approved', operator, 'fine');
      timings.decision.push(performance.now() - started);
    }
  }
}

async function run(store, layout, round) {
  /** @type {{ verdict: number[], decision: number[] }} */
  const timings = { verdict: [], decision: [] };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, (_, index) =>
      worker(store, layout === 'one tenant' ? `solo-${round}` : `t${round}-${index}`, timings),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const count = timings.verdict.length + timings.decision.length;
  return { layout, timings, perSecond: count / seconds };
}

console.log(
  `audit-chain-lock: ${workers} workers × ${decisions} writes, ${rounds} round(s); load at start ${load()}`,
);
const postgres = await startPostgres({ durable: true });
const store = await openPostgresStore(await postgres.createDatabase('bench_chain'));
try {
  // A warm-up round of each, not counted.
  await run(store, 'one tenant', 'warm');
  await run(store, 'one tenant per worker', 'warm');
  /** @type {Record<string, Awaited<ReturnType<typeof run>>[]>} */
  const results = { 'one tenant': [], 'one tenant per worker': [] };
  for (let round = 0; round < rounds; round += 1) {
    const order =
      round % 2 === 0 ? ['one tenant', 'one tenant per worker'] : ['one tenant per worker', 'one tenant'];
    for (const layout of order) results[layout].push(await run(store, layout, String(round)));
  }
  const rows = Object.entries(results).map(([layout, list]) => {
    const verdicts = list.flatMap((result) => result.timings.verdict);
    const approvals = list.flatMap((result) => result.timings.decision);
    const perSecond = list.reduce((sum, result) => sum + result.perSecond, 0) / list.length;
    return [
      layout,
      percentile(verdicts, 50).toFixed(2),
      percentile(verdicts, 99).toFixed(2),
      percentile(approvals, 50).toFixed(2),
      percentile(approvals, 99).toFixed(2),
      perSecond.toFixed(0),
    ];
  });
  console.log(
    table(
      ['layout', 'verdict p50 ms', 'verdict p99 ms', 'approval p50 ms', 'approval p99 ms', 'decisions/s'],
      rows,
    ),
  );
  const [one, many] = rows;
  if (one !== undefined && many !== undefined)
    console.log(
      `one tenant / spread: verdict p99 ×${(Number(one[2]) / Number(many[2])).toFixed(2)}, throughput ×${(Number(one[5]) / Number(many[5])).toFixed(2)}`,
    );
  const reports = await store.verifyAuditChains();
  const problems = reports.reduce((sum, report) => sum + report.problems.length, 0);
  console.log(`verify: ${reports.length} chains, ${problems} problems; load at end ${load()}`);
} finally {
  await store.close();
  await postgres.stop();
}
