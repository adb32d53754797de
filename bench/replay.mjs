#!/usr/bin/env node
// @ts-check
// `holodeck test --replay` of a 20-case suite against the same suite run live against the fake
// model server, side by side in one run (interleaved samples, medians); and the cost of recording:
// `--record` into a new folder, and `--record --re-record` over the committed recording, against
// the plain live run. See bench/README.md.
//
//   node bench/replay.mjs [--samples 3] [--cases 20] [--concurrency 4] [--latency 0]
//                         [--provider anthropic|openai]
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { entryOf, integerOption, median, table } from './bench-format.mjs';
import { PROTOCOLS } from './fake-model-protocols.mjs';
import { startTreeSampler } from './proc-stats.mjs';

/** Targets (issue 19): replay wall time at most 1.05x the fake-server run, no more memory; recording at most 3 % slower. */
const REPLAY_RATIO_TARGET = 1.05;
const MEMORY_RATIO_TARGET = 1.0;
const RECORD_OVERHEAD_TARGET = 0.03;
const MODELS = { anthropic: 'claude-sonnet-4-6', openai: 'gpt-4o-mini' };

const here = path.dirname(fileURLToPath(import.meta.url));
const holodeckBin = path.join(here, '..', 'packages/holodeck/bin/holodeck.js');
const now = () => performance.timeOrigin + performance.now();

const { values } = parseArgs({
  options: {
    samples: { type: 'string', default: '3' },
    cases: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '4' },
    latency: { type: 'string', default: '0' },
    provider: { type: 'string', default: 'anthropic' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(
    'usage: node bench/replay.mjs [--samples N (3)] [--cases N (20)] [--concurrency N (4)]\n' +
      '                             [--latency MS (0): the fake model server answer delay]\n' +
      '                             [--provider anthropic|openai (anthropic)]\n',
  );
  process.exit(0);
}
const samples = integerOption(values, 'samples', 1);
const cases = integerOption(values, 'cases', 1);
const concurrency = integerOption(values, 'concurrency', 1);
const latencyMs = integerOption(values, 'latency', 0);
const provider = values.provider;
const protocol = PROTOCOLS[provider];
if (!protocol) throw new Error(`--provider must be anthropic or openai, got ${provider}`);

const server = await protocol.start({ answer: 'the answer', latencyMs });
const directory = await mkdtemp(path.join(os.tmpdir(), 'bench-replay-'));
const home = path.join(directory, 'home');
await mkdir(home);
const model =
  provider === 'openai'
    ? `model:\n  provider: openai\n  name: ${MODELS.openai}\n  endpoint: ${server.baseUrl}\n`
    : `model:\n  provider: anthropic\n  name: ${MODELS.anthropic}\n`;
const testCases = Array.from(
  { length: cases },
  (_, index) =>
    `  - name: case-${index + 1}\n    input: question ${index + 1}\n    metrics:\n      - type: contains\n        value: answer\n`,
).join('');
await writeFile(
  path.join(directory, 'agent.yaml'),
  `name: bench-replay\n${model}instructions:\n  inline: You are the benchmark agent. Answer briefly.\ntest_cases:\n${testCases}`,
);
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, NO_COLOR: '1', ...protocol.env(server) };

/** One `holodeck test` run: wall time from spawn to exit and the peak RSS of its process tree. */
function run(label, flags) {
  const before = server.allRequests?.length ?? server.requests.length;
  return new Promise((resolve, reject) => {
    const startedAt = now();
    const child = spawn(
      process.execPath,
      [
        holodeckBin,
        'test',
        path.join(directory, 'agent.yaml'),
        '--no-save',
        '-c',
        String(concurrency),
        ...flags,
      ],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const sampler = startTreeSampler(child.pid, startedAt, 50);
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = now() - startedAt;
      const timeline = sampler.stop();
      const requests = (server.allRequests?.length ?? server.requests.length) - before;
      if (code !== 0 || !output.includes(`${cases} passed`))
        return reject(new Error(`${label}: exit ${code}\n${output.slice(-2000)}`));
      resolve({ wallMs, peakRssMb: Math.max(...timeline.map((entry) => entry.rssKb)) / 1024, requests });
    });
  });
}

let fresh = 0;
// The recording the replays use, made once before timing.
await run('first recording', ['--record']);
const contenders = [
  { label: 'live (fake server)', flags: [] },
  { label: 'replay', flags: ['--replay'] },
  // A recording made into a new folder: the live run plus writing what it exchanged.
  { label: 'record (new folder)', flags: () => ['--record', path.join(directory, `recording-${++fresh}`)] },
  // Replacing a committed recording also reads and checks every existing file first.
  { label: 're-record', flags: ['--record', '--re-record'] },
];
/** @type {Map<string, { wallMs: number, peakRssMb: number, requests: number }[]>} */
const results = new Map(contenders.map((contender) => [contender.label, []]));
for (let sample = 0; sample < samples; sample++) {
  // Interleaved, and the order rotated, so drift in the machine's load hits every contender alike.
  const order = contenders.map((_, index) => contenders[(index + sample) % contenders.length]);
  for (const contender of order) {
    const flags = typeof contender.flags === 'function' ? contender.flags() : contender.flags;
    const result = await run(contender.label, flags);
    entryOf(results, contender.label).push(result);
    process.stderr.write(
      `sample ${sample + 1} ${contender.label}: ${(result.wallMs / 1000).toFixed(2)} s, ${result.peakRssMb.toFixed(0)} MB, ${result.requests} upstream requests\n`,
    );
  }
}
await server.close();

const stats = (label) => {
  const list = entryOf(results, label);
  return {
    wall: median(list.map((entry) => entry.wallMs)),
    rss: median(list.map((entry) => entry.peakRssMb)),
    requests: median(list.map((entry) => entry.requests)),
  };
};
const live = stats('live (fake server)');
const rows = contenders.map(({ label }) => {
  const own = stats(label);
  return [
    label,
    `${(own.wall / 1000).toFixed(2)} s`,
    (own.wall / live.wall).toFixed(3),
    `${own.rss.toFixed(0)} MB`,
    (own.rss / live.rss).toFixed(3),
    own.requests,
  ];
});
process.stdout.write(
  `holodeck test, ${cases} cases, concurrency ${concurrency}, provider ${provider}, fake latency ${latencyMs} ms, ${samples} samples (medians)\n\n`,
);
process.stdout.write(
  `${table(['contender', 'wall', 'vs live', 'peak RSS', 'vs live', 'upstream requests'], rows)}\n\n`,
);
const replay = stats('replay');
const record = stats('record (new folder)');
const reRecord = stats('re-record');
const overhead = (own) => (own.wall - live.wall) / live.wall;
const verdict = (ok) => (ok ? 'holds' : 'MISSED');
process.stdout.write(
  `replay wall ${(replay.wall / live.wall).toFixed(3)}x live (target <= ${REPLAY_RATIO_TARGET}): ${verdict(replay.wall / live.wall <= REPLAY_RATIO_TARGET)}\n` +
    `replay peak RSS ${(replay.rss / live.rss).toFixed(3)}x live (target <= ${MEMORY_RATIO_TARGET}): ${verdict(replay.rss / live.rss <= MEMORY_RATIO_TARGET)}\n` +
    `recording overhead ${(overhead(record) * 100).toFixed(1)} % of wall time (target <= ${RECORD_OVERHEAD_TARGET * 100} %): ${verdict(overhead(record) <= RECORD_OVERHEAD_TARGET)}\n` +
    `re-recording overhead ${(overhead(reRecord) * 100).toFixed(1)} % of wall time (target <= ${RECORD_OVERHEAD_TARGET * 100} %): ${verdict(overhead(reRecord) <= RECORD_OVERHEAD_TARGET)}\n`,
);
if (replay.requests !== 0) {
  process.stderr.write(`replay made ${replay.requests} upstream request(s): it must make none\n`);
  process.exitCode = 1;
}
