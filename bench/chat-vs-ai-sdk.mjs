#!/usr/bin/env node
// @ts-check
// `holodeck chat <agent.yaml> -p` of a `provider: openai` agent (the AI SDK backend, in-process)
// against a bare AI SDK generateText() script with the same options, side by side in one run,
// both against one fake OpenAI-compatible server. Process level: each sample is a fresh `node`.
// See bench/README.md.
//
//   node bench/chat-vs-ai-sdk.mjs [--samples 12] [--warmup 2] [--latency-ms 0] [--profile 3]
//                                 [--variant LABEL=path/to/holodeck.js]... [--wait-quiet 60]
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { integerOption, median, table } from './bench-format.mjs';
import { cpuProfileGroups, cpuProfileTable } from './cpu-profile-groups.mjs';
import { PROTOCOLS } from './fake-model-protocols.mjs';
import { busyCores } from './proc-stats.mjs';
import { BenchError, runContender } from './run-contender.mjs';

const TARGET_RATIO = 1.1;
const EXPECTED_REPLY = 'The benchmark reply is 42.';
const PROMPT = 'What is the benchmark reply?';
const INSTRUCTIONS = 'You are the benchmark agent. Answer briefly.';
const MODEL = 'gpt-4o-mini';
/** A run during which other programs used more than this many cores on average is marked `*`. */
const BUSY_OTHER_CORES = 0.25;

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const holodeckBin = path.join(root, 'packages/holodeck/bin/holodeck.js');
const bareScript = path.join(here, 'bare-ai-sdk-generate.mjs');

const now = () => performance.timeOrigin + performance.now();

function parseOptions() {
  const { values } = parseArgs({
    options: {
      samples: { type: 'string', default: '12' },
      warmup: { type: 'string', default: '2' },
      'latency-ms': { type: 'string', default: '0' },
      profile: { type: 'string', default: '0' },
      variant: { type: 'string', multiple: true, default: [] },
      'wait-quiet': { type: 'string', default: '0' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      'usage: node bench/chat-vs-ai-sdk.mjs [--samples N (12)] [--warmup N (2)] [--latency-ms N (0)]\n' +
        '                                     [--profile N (0): N more runs per side under --cpu-prof, not timed,\n' +
        '                                      to show where the CPU goes by package]\n' +
        '                                     [--variant LABEL=path/to/holodeck.js]... (a patched copy, side by side)\n' +
        '                                     [--wait-quiet SECONDS (0: off): before each round, wait up to this long\n' +
        `                                      until other programs use at most ${BUSY_OTHER_CORES} cores]\n`,
    );
    process.exit(0);
  }
  const integer = (name, min) => integerOption(values, name, min, BenchError);
  return {
    samples: integer('samples', 1),
    warmup: integer('warmup', 0),
    latencyMs: integer('latency-ms', 0),
    profile: integer('profile', 0),
    waitQuietMs: integer('wait-quiet', 0) * 1000,
    variants: values.variant.map((text) => {
      const match = /^([\w.-]+)=(.+)$/.exec(text);
      if (!match || ['holodeck', 'bare'].includes(match[1]))
        throw new BenchError(
          `--variant must be LABEL=path/to/holodeck.js (not holodeck or bare), got "${text}"`,
        );
      return { key: match[1], bin: path.resolve(match[2]) };
    }),
  };
}

// ---------------------------------------------------------------- statistics and printing

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  // nearest rank: the smallest value with at least q of the samples at or below it
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}

const ms = (value) => (value === undefined ? '-' : value.toFixed(0));
const mb = (kb) => (kb === undefined ? '-' : (kb / 1024).toFixed(0));
const signed = (value) => `${value >= 0 ? '+' : ''}${value.toFixed(0)}`;

/** Progress on a terminal only; piped output stays a clean report. */
function progress(text) {
  if (process.stderr.isTTY) process.stderr.write(`\r${text}\u001b[K`);
}

// ---------------------------------------------------------------- fixtures and sides

async function createFixtures(sides) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'chat-vs-ai-sdk-'));
  const agentDir = path.join(dir, 'agent');
  await mkdir(agentDir);
  const agentFile = path.join(agentDir, 'agent.yaml');
  await writeFile(
    agentFile,
    [
      'name: bench-agent',
      'model:',
      '  provider: openai',
      `  name: ${MODEL}`,
      'instructions:',
      `  inline: ${INSTRUCTIONS}`,
      '',
    ].join('\n'),
  );
  // A fresh HOME per side: no ~/.holodeck/.env, and each side's files apart.
  const homes = {};
  for (const side of sides) {
    homes[side.key] = path.join(dir, `home-${side.key}`);
    await mkdir(homes[side.key]);
  }
  return { dir, agentFile, homes };
}

function sidesOf(options) {
  const chat = (bin) => [bin, 'chat', '<agent>', '-p', PROMPT];
  return [
    { key: 'holodeck', label: 'holodeck chat -p (provider openai)', args: chat(holodeckBin) },
    ...options.variants.map((variant) => ({
      key: variant.key,
      label: `${variant.key}: holodeck chat -p`,
      args: chat(variant.bin),
    })),
    {
      key: 'bare',
      label: 'bare generateText() (bare-ai-sdk-generate.mjs)',
      args: [bareScript, '-p', PROMPT, '--system', INSTRUCTIONS, '--model', MODEL],
    },
  ];
}

/** One timed run of a side: its stdout must carry the reply, the server exactly one request like HoloDeck's. */
function runSide(side, { server, fixtures, requestTimes, latencyMs }, nodeFlags = []) {
  return runContender({
    contender: {
      ...side,
      args: [...nodeFlags, ...side.args.map((arg) => (arg === '<agent>' ? fixtures.agentFile : arg))],
      expectStdout: EXPECTED_REPLY,
    },
    server,
    home: fixtures.homes[side.key],
    latencyMs,
    caseCount: 1,
    requestTimes,
    expected: { instructions: INSTRUCTIONS, model: MODEL },
    protocol: PROTOCOLS.openai,
    // One process and no children: its own peak RSS (the probe) is the tree's, and no sampler
    // competes with it for the two cores.
    sampleEveryMs: 0,
  });
}

/** Where one sample's wall time went, from the probe (child-probe.mjs) and the server's clock. */
function phasesOf(run) {
  const { nodeMainAt, nodeExitAt } = run.trace;
  if (nodeMainAt === undefined || nodeExitAt === undefined) return undefined;
  return {
    'spawn -> main module (Node start-up)': nodeMainAt,
    'main -> API request (imports, config, setup)': run.firstRequestMs - nodeMainAt,
    'API request -> exit event (answer, output, teardown)': nodeExitAt - run.firstRequestMs,
    'exit event -> bench saw close (process teardown)': run.wallMs - nodeExitAt,
  };
}

// ---------------------------------------------------------------- main

function resultTable(sides, runs) {
  const bareMedian = median(runs.bare.map((run) => run.wallMs));
  const rows = sides.map((side) => {
    const list = runs[side.key];
    const walls = list.map((run) => run.wallMs);
    const quiet = list.filter((run) => run.otherCores <= BUSY_OTHER_CORES).map((run) => run.wallMs);
    return [
      side.label,
      ms(median(walls)),
      ms(quantile(walls, 0.9)),
      ms(Math.min(...walls)),
      ms(Math.max(...walls)),
      side.key === 'bare' ? '(base)' : (median(walls) / bareMedian).toFixed(3),
      quiet.length ? `${ms(median(quiet))} (${quiet.length})` : '-',
      median(list.map((run) => run.nodeCpuSeconds)).toFixed(2),
      mb(median(list.map((run) => run.peakRssKb))),
      median(list.map((run) => run.otherCores)).toFixed(2),
    ];
  });
  return table(
    [
      'process level (medians)',
      'wall ms',
      'p90',
      'min',
      'max',
      'ratio',
      'quiet ms (n)',
      'CPU s',
      'peak RSS MB',
      'other cores',
    ],
    rows,
  );
}

function phaseTable(sides, runs) {
  const phases = Object.fromEntries(
    sides.map((side) => [side.key, runs[side.key].map(phasesOf).filter(Boolean)]),
  );
  if (!phases.bare.length) return 'phases: not measured (no probe output)';
  const names = Object.keys(phases.bare[0]);
  const others = sides.filter((side) => side.key !== 'bare');
  const rows = names.map((name) => {
    const of = (key) => median(phases[key].map((entry) => entry[name]));
    return [
      name,
      ...others.flatMap((side) => [ms(of(side.key)), signed(of(side.key) - of('bare'))]),
      ms(of('bare')),
    ];
  });
  return table(
    ['phase (medians)', ...others.flatMap((side) => [`${side.key} ms`, 'vs bare']), 'bare ms'],
    rows,
  );
}

/** `--profile N`: N more runs of each side under --cpu-prof; CPU ms per package, medians over the runs. */
async function profileTable(sides, context, count, dir) {
  const perSide = {};
  for (const side of sides) {
    const profileDir = path.join(dir, `profile-${side.key}`);
    await mkdir(profileDir);
    // One more run first: new node flags mean a new code cache key, and its first run writes it.
    for (let index = 0; index <= count; index++) {
      progress(`profile: ${side.key} ${index + 1}/${count + 1}`);
      await runSide(side, context, ['--cpu-prof', '--cpu-prof-dir', profileDir]);
    }
    // Names start with the date and time (CPU.<date>.<time>.<pid>...): sorted, the first is the extra run.
    const files = (await readdir(profileDir))
      .filter((file) => file.endsWith('.cpuprofile'))
      .sort()
      .slice(1);
    perSide[side.key] = files.map((file) => cpuProfileGroups(path.join(profileDir, file)));
  }
  progress('');
  return cpuProfileTable(
    sides.map((side) => ({ label: side.key, profiles: perSide[side.key] })),
    `CPU by package, median of ${count} profiled runs (ms)`,
  );
}

/** `--wait-quiet`: waits (up to `limitMs`, then goes on) until other programs use few cores. */
async function waitUntilQuiet(limitMs, label) {
  if (!limitMs) return;
  const from = now();
  for (
    let busy = await busyCores();
    busy > BUSY_OTHER_CORES && now() - from < limitMs;
    busy = await busyCores()
  ) {
    progress(`round ${label}: waiting, other programs use ${busy.toFixed(2)} cores`);
  }
}

async function main() {
  const options = parseOptions();
  const requestTimes = new Map();
  const server = await PROTOCOLS.openai.start({
    answer: EXPECTED_REPLY,
    latencyMs: options.latencyMs,
    onRequest: (request) => requestTimes.set(request, now()),
  });
  const sides = sidesOf(options);
  const fixtures = await createFixtures(sides);
  const context = { server, fixtures, requestTimes, latencyMs: options.latencyMs };
  const runs = Object.fromEntries(sides.map((side) => [side.key, []]));
  const loadAtStart = os.loadavg();
  try {
    process.stdout.write(
      `chat-vs-ai-sdk: ${options.samples} samples per side after ${options.warmup} warm-up runs, interleaved; ` +
        `fake OpenAI server latency ${options.latencyMs} ms\n` +
        `machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB; ` +
        `node ${process.version}; load average at start: ${loadAtStart.map((value) => value.toFixed(2)).join(' ')}\n`,
    );
    const total = options.warmup + options.samples;
    for (let round = 0; round < total; round++) {
      // rotate the order every round so drift and neighbours' noise spread over all sides
      const order = sides.map((_, index) => sides[(index + round) % sides.length]);
      await waitUntilQuiet(options.waitQuietMs, `${round + 1}/${total}`);
      for (const side of order) {
        progress(`${round < options.warmup ? 'warm-up' : 'sample'} ${round + 1}/${total}: ${side.key}`);
        const run = await runSide(side, context);
        if (round >= options.warmup) runs[side.key].push(run);
      }
    }
    progress('');
    const out = [
      '',
      resultTable(sides, runs),
      '  ratio = median wall / median wall of the bare script; wall = spawn to exit; CPU s = user+sys of the process;',
      `  quiet = runs during which other programs used at most ${BUSY_OTHER_CORES} cores; other cores = their CPU during the run`,
      '',
      phaseTable(sides, runs),
      '',
    ];
    if (options.profile > 0) out.push(await profileTable(sides, context, options.profile, fixtures.dir), '');
    const bareMedian = median(runs.bare.map((run) => run.wallMs));
    for (const side of sides.filter((entry) => entry.key !== 'bare')) {
      const ratio = median(runs[side.key].map((run) => run.wallMs)) / bareMedian;
      out.push(
        `${side.label} vs bare generateText(): ratio ${ratio.toFixed(3)} -> ${ratio <= TARGET_RATIO ? 'PASS' : 'FAIL'} (target <= ${TARGET_RATIO.toFixed(2)})`,
      );
    }
    const loadAtEnd = os.loadavg();
    out.push(
      `load average at start: ${loadAtStart.map((v) => v.toFixed(2)).join(' ')}; at end: ${loadAtEnd.map((v) => v.toFixed(2)).join(' ')} (1, 5, 15 min)`,
      '',
    );
    process.stdout.write(out.join('\n'));
  } finally {
    await server.close();
    await rm(fixtures.dir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  process.stderr.write(
    `\nchat-vs-ai-sdk: benchmark aborted: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  if (!(error instanceof BenchError) && error instanceof Error && error.stack)
    process.stderr.write(`${error.stack}\n`);
  process.exitCode = 1;
}
