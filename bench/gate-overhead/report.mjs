// @ts-check
import { table } from '../bench-format.mjs';
import { SIDE_LABELS } from './cli-level.mjs';
import { fixed, gcWithin, overheadRows, QUANTILES, quantile } from './measure.mjs';

// ---------------------------------------------------------------- report

export const walls = (calls) => calls.map((call) => call.wall);
/** The wall time less the time the thread was runnable but had no CPU: the call's cost on an idle machine. */
export const ownTimes = (calls) => calls.map((call) => Math.max(0, call.wall - call.wait));
export const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Means of wall = on CPU + waiting for a CPU + blocked, over all calls and over the slowest 1%. */
export function splitRows(label, calls) {
  const slowest = [...calls]
    .sort((a, b) => b.wall - a.wall)
    .slice(0, Math.max(1, Math.ceil(calls.length / 100)));
  return [
    [`${label}, all calls`, calls],
    [`${label}, slowest 1%`, slowest],
    [`${label}, with a WAL checkpoint`, calls.filter((call) => call.checkpoint)],
  ].map(([name, group]) => {
    if (!group.length) return [name, 0, 0, '-', '-', '-', '-', '-'];
    const wall = mean(group.map((call) => call.wall));
    const cpu = mean(group.map((call) => call.cpu));
    const wait = mean(group.map((call) => call.wait));
    return [
      name,
      group.length,
      group.filter((call) => call.checkpoint).length,
      fixed(wall, 3),
      fixed(cpu, 3),
      fixed(wait, 3),
      fixed(Math.max(0, wall - cpu - wait), 3),
      fixed(mean(group.map((call) => gcWithin(call.from, call.to))), 3),
    ];
  });
}

export function hookReport(hook, options) {
  const rows = [
    ...overheadRows('read (pre+post)', walls(hook.reads.gated), walls(hook.reads.baseline), 3),
    ...overheadRows('passed write (pre+tool+post)', walls(hook.writes.gated), walls(hook.writes.baseline), 3),
  ];
  const ownRows = [
    ...overheadRows('read', ownTimes(hook.reads.gated), ownTimes(hook.reads.baseline), 3),
    ...overheadRows('passed write', ownTimes(hook.writes.gated), ownTimes(hook.writes.baseline), 3),
  ];
  const split = [
    ...splitRows('gated read', hook.reads.gated),
    ...splitRows('gated write', hook.writes.gated),
  ];
  const partRows = Object.entries(hook.parts).map(([name, values]) => [
    name,
    values.length,
    ...QUANTILES.map(([, q]) => fixed(quantile(values, q), 3)),
  ]);
  return [
    `1. hook level (in process): ${options.reads} reads in sessions of ${options.sessionReads}, ${options.writes} passed writes each after ${options.evidence} lookups; gated and baseline calls alternate`,
    '',
    table(['call', 'n', 'p50 ms', 'p99 ms', 'max ms'], rows),
    '  gated = the NovarchHookGate hooks (PreToolUse, the tool, PostToolUse); baseline = no-op hooks of the same shape',
    '  overhead = gated quantile - baseline quantile (process.hrtime.bigint; includes any GC pause that falls in a call)',
    '',
    table(['the same calls less CPU wait', 'n', 'p50 ms', 'p99 ms', 'max ms'], ownRows),
    '  wall - CPU wait (time runnable without a core, /proc/self/schedstat): what the calls would take on an idle machine',
    '',
    table(
      [
        'where a gated call spends its time (means)',
        'n',
        'ckpt',
        'wall ms',
        'on CPU',
        'CPU wait',
        'blocked',
        'in GC',
      ],
      split,
    ),
    '  wall = on CPU + CPU wait + blocked, from /proc/self/schedstat around each call: on CPU = this thread ran; CPU wait =',
    '  runnable but other programs had the cores (machine load); blocked = neither: waiting on I/O (fsync). in GC = wall',
    '  time of garbage-collection pauses inside the call (perf_hooks gc entries; overlaps the other columns).',
    "  ckpt = calls during which the WAL was checkpointed into the database file: by the store's background worker, beside",
    "  the call (the default), or with checkpoints: 'automatic' by the commit that takes the WAL past 1000 pages (~1000",
    '  page copies and 2 fsyncs, on the event loop)',
    '',
    table(['gate work, each part timed alone', 'n', 'p50 ms', 'p99 ms', 'max ms'], partRows),
    '  a read = isKilled + recordEvidence; a passed write = proposeAction + judgeAction + releaseAction (one durable commit)',
  ].join('\n');
}

/** The values of one span of one kind of call ('read' or 'write') over a side's runs. */
export function spans(cli, side, kind, field) {
  return cli[side].runs.flatMap((run) =>
    (kind === 'read' ? run.reads : [run.write]).map((call) => call[field]),
  );
}

export function cliReport(cli, options) {
  const rows = [];
  for (const kind of ['read', 'write']) {
    for (const [field, what] of [
      ['cycle', 'pre hook -> next request'],
      ['preToTool', 'pre hook -> tool'],
      ['postToNext', 'post hook -> next request'],
    ]) {
      const values = Object.fromEntries(
        Object.keys(SIDE_LABELS).map((side) => [side, spans(cli, side, kind, field)]),
      );
      const at = (side) => QUANTILES.map(([, q]) => quantile(values[side], q));
      const difference = (side) => at(side).map((value, index) => fixed(value - at('none')[index], 1));
      for (const side of Object.keys(SIDE_LABELS))
        rows.push([
          `${kind}, ${what}: ${SIDE_LABELS[side]}`,
          values[side].length,
          ...at(side).map((value) => fixed(value, 1)),
        ]);
      rows.push([`${kind}, ${what}: gate overhead`, '', ...difference('gated')]);
      rows.push([`${kind}, ${what}: of which hook calls`, '', ...difference('noop')]);
    }
  }
  const totals = (side) => cli[side].runs.map((run) => run.totalMs);
  const medianTotal = (side) => quantile(totals(side), 0.5);
  const perCall = (medianTotal('gated') - medianTotal('none')) / (options.cliReads + 1);
  return [
    `2. through the real CLI: query() with an in-process MCP server, ${options.cliReads} lookups then 1 refund per run, ` +
      `${options.samples} runs per side after ${options.warmup} warm-up; the sides take turns, order rotating`,
    '',
    table(['call, span', 'n', 'p50 ms', 'p99 ms', 'max ms'], rows),
    "  sides: gated = timing hook + NovarchHookGate; no-op hooks = timing hook + no-op matchers of the gate's shape;",
    '  no hooks = the timing hook only. gate overhead = gated - no hooks, at each quantile; of which hook calls = no-op - no hooks',
    '  (the CLI calling two more SDK hooks per tool call over its control channel, whatever they do).',
    "  spans, on this process's clock: pre hook = the CLI asks the PreToolUse hooks (the timing hook, first in every run);",
    '  tool = the MCP tool body runs; post hook = the CLI asks the PostToolUse hooks; next request = the tool result reaches the',
    "  fake model. The CLI runs an event's hooks in parallel, so the gate's PostToolUse work (the evidence insert) falls in",
    '  "post hook -> next request", not between the two hooks: "pre hook -> next request" is the per-call wall time, with all of it.',
    `  whole run (query() to result), median: gated ${fixed(medianTotal('gated'), 0)} ms, no-op hooks ${fixed(medianTotal('noop'), 0)} ms, ` +
      `no hooks ${fixed(medianTotal('none'), 0)} ms; (gated - no hooks) / ${options.cliReads + 1} calls = ${fixed(perCall, 1)} ms (CLI start-up noise included)`,
  ].join('\n');
}

/**
 * How far apart the read p99s of two halves of the same side (no hooks, odd and even runs) are:
 * an overhead smaller than this is not resolved by this run.
 */
export function cliNoise(cli) {
  const halves = [0, 1].map((parity) =>
    cli.none.runs
      .filter((_, index) => index % 2 === parity)
      .flatMap((run) => run.reads.map((call) => call.cycle)),
  );
  if (!halves[1].length) return Number.NaN;
  return Math.abs(quantile(halves[0], 0.99) - quantile(halves[1], 0.99));
}

export function overheadAt(gated, baseline, q) {
  return quantile(gated, q) - quantile(baseline, q);
}
