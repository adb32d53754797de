// @ts-check
// What the statistics add to a 1,000-case report, and how long `holodeck test merge` of 4 shards of
// 1,000 cases takes. Side by side in one run: the same report built and compared with the
// statistics (case states and intervals, the suite's clustered interval, the comparison's
// Newcombe intervals, Fisher + Holm, the 2,000-resample paired bootstrap) and without them
// (counting passes only). Targets: statistics ≤ 50 ms; merge ≤ 1 s. Prints numbers, exits 0.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { summarise } from '../packages/holodeck/dist/runner/build-case-report.js';
import { compareRuns } from '../packages/holodeck/dist/runner/report/compare-runs.js';
import { mergeRuns } from '../packages/holodeck/dist/runner/report/merge-runs.js';
import { parseRunReport } from '../packages/holodeck/dist/runner/report/run-report-schema.js';
import { writeJsonReport } from '../packages/holodeck/dist/runner/report/write-json-report.js';

const args = process.argv.slice(2);
const samples = Number(args[args.indexOf('--samples') + 1]) || 15;
const usage = {
  prompt_tokens: 100,
  completion_tokens: 20,
  total_tokens: 120,
  cache_read_tokens: 0,
  cache_creation_tokens: 0,
};

let seed = 7;
const random = () => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed / 2 ** 32;
};

function attempt(number, passed) {
  return {
    attempt: number,
    passed,
    response: 'answer',
    tool_calls: [],
    tool_results: [],
    metrics: [{ name: 'contains', type: 'contains', score: passed ? 1 : 0, passed, reason: '' }],
    score: passed ? 1 : 0,
    token_usage: usage,
    cost_usd: 0.001,
    num_turns: 1,
    duration_ms: 100,
  };
}

function caseReport(name, attempts, withStats) {
  const passes = attempts.filter((entry) => entry.passed).length;
  const base = {
    name,
    tags: [],
    input: 'q',
    passed: passes === attempts.length,
    errored: false,
    pass_rate: passes / attempts.length,
    min_pass_rate: 1,
    pass_at_k: passes > 0 ? 1 : 0,
    pass_pow_k: passes === attempts.length ? 1 : 0,
    attempts,
    response: 'answer',
    tool_calls: [],
    tool_results: [],
    metrics: attempts[0].metrics,
    score: 0,
    token_usage: usage,
    num_turns: 1,
    duration_ms: 300,
  };
  return withStats
    ? base
    : { ...base, state: 'passing', finished_attempts: attempts.length, pass_interval: null };
}

/** @returns {import("../packages/holodeck/dist/index.js").RunReport} */
function run(id, names, withStats, rate) {
  const cases = names.map((name) =>
    caseReport(
      name,
      [1, 2, 3].map((n) => attempt(n, random() < rate)),
      withStats,
    ),
  );
  return {
    schema_version: /** @type {const} */ (2),
    run_id: id,
    started_at: '2026-12-01T00:00:00.000Z',
    finished_at: '2026-12-01T00:10:00.000Z',
    agent: {
      name: 'bench',
      file: '/bench/agent.yaml',
      model: 'm',
      provider: 'anthropic',
      config_hash: null,
      config: null,
      instructions_hash: null,
    },
    environment: null,
    suite_cases: names,
    options: { concurrency: 4, isolation: 'process', allow_side_effects: false },
    // Filled in by the timed part (summarise, or the plain counts below).
    summary: /** @type {any} */ ({}),
    cases,
  };
}

const names = Array.from({ length: 1000 }, (_, index) => `case-${index}`);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
// Wall time, and the process's CPU time (user + system) over the same work: on a loaded machine
// the wall time counts the waits for a core, the CPU time mostly does not.
const cpu = [];
const time = (work) => {
  const start = performance.now();
  const used = process.cpuUsage();
  work();
  const spent = process.cpuUsage(used);
  cpu.push((spent.user + spent.system) / 1000);
  return performance.now() - start;
};
const cpuOf = () => cpu.splice(0);

// With statistics: the summary's intervals and a full comparison (bootstrap included).
const withStats = [];
const without = [];
const withStatsCpu = [];
const withoutCpu = [];
for (let sample = 0; sample < samples + 2; sample += 1) {
  const baseline = run('base', names, true, 0.9);
  const current = run('now', names, true, 0.88);
  const plainBaseline = run('base', names, false, 0.9);
  const plainCurrent = run('now', names, false, 0.88);
  const stats = time(() => {
    current.summary = summarise(current.cases, 600_000, 0.95);
    baseline.summary = summarise(baseline.cases, 600_000, 0.95);
    compareRuns(current, baseline);
  });
  const [statsCpu = 0] = cpuOf();
  const plain = time(() => {
    for (const report of [plainCurrent, plainBaseline]) {
      const passed = report.cases.filter((entry) => entry.passed).length;
      // Only the counts, on purpose: the side without the statistics.
      report.summary = /** @type {any} */ ({
        total: report.cases.length,
        passed,
        pass_rate: passed / report.cases.length,
      });
    }
    const before = new Map(plainBaseline.cases.map((entry) => [entry.name, entry.passed]));
    plainCurrent.cases.map((entry) => before.get(entry.name) === entry.passed);
  });
  const [plainCpu = 0] = cpuOf();
  if (sample >= 2) {
    withStats.push(stats);
    without.push(plain);
    withStatsCpu.push(statsCpu);
    withoutCpu.push(plainCpu);
  }
}
const added = median(withStats) - median(without);
console.log(`1,000 cases × 3 attempts, ${samples} samples`);
console.log(`  summary + comparison with statistics: median ${median(withStats).toFixed(1)} ms`);
console.log(`  counting passes only:                 median ${median(without).toFixed(1)} ms`);
console.log(`  statistics add ${added.toFixed(1)} ms (target ≤ 50 ms): ${added <= 50 ? 'met' : 'NOT met'}`);
const addedCpu = median(withStatsCpu) - median(withoutCpu);
console.log(
  `  in CPU time: ${median(withStatsCpu).toFixed(1)} ms against ${median(withoutCpu).toFixed(1)} ms, statistics add ${addedCpu.toFixed(1)} ms (target ≤ 50 ms): ${addedCpu <= 50 ? 'met' : 'NOT met'}`,
);
console.log(
  `  load average ${os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')} (${os.cpus().length} cores)`,
);

// merge: 4 shards of 1,000 cases each (4,000-case suite), from their JSON text as the CLI reads it.
const suite = Array.from({ length: 4000 }, (_, index) => `case-${index}`);
const shardTexts = [0, 1, 2, 3].map((shard) => {
  const report = run(
    `shard-${shard}`,
    suite.filter((_, index) => index % 4 === shard),
    true,
    0.9,
  );
  report.suite_cases = suite;
  report.summary = summarise(report.cases, 600_000, 0.95);
  return writeJsonReport(report);
});
const merges = [];
for (let sample = 0; sample < Math.max(3, Math.floor(samples / 3)) + 1; sample += 1) {
  const elapsed = time(() => {
    const runs = shardTexts.map((text, index) => parseRunReport(text, `shard-${index}.json`));
    writeJsonReport(mergeRuns(runs, ['a', 'b', 'c', 'd'], 'merged'));
  });
  if (sample > 0) merges.push(elapsed);
}
const mergeCpu = median(cpuOf().slice(1));
const merge = median(merges);
console.log(
  `merge of 4 shards × 1,000 cases (parse, check, merge, write): median ${merge.toFixed(0)} ms, CPU ${mergeCpu.toFixed(0)} ms (target ≤ 1,000 ms): ${merge <= 1000 ? 'met' : 'NOT met'}`,
);
