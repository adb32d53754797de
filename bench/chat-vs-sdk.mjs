#!/usr/bin/env node
// @ts-check
// `holodeck chat <agent.yaml> -p` against a bare Claude Agent SDK query() with the same options,
// side by side in one run, both against one fake Anthropic server. See bench/README.md.
//
//   node bench/chat-vs-sdk.mjs [--samples 12] [--warmup 2] [--latency-ms 0]
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { reply, startFakeAnthropic } from '@holodeck/testkit';
import { bareCliEnv, runBareQuery } from './bare-sdk-query.mjs';
import { integerOption, median, table } from './bench-format.mjs';
import { describeUnexpected, requestProblems } from './check-bench-requests.mjs';

const TARGET_RATIO = 1.1;
const EXPECTED_REPLY = 'The benchmark reply is 42.';
const PROMPT = 'What is the benchmark reply?';
const INSTRUCTIONS = 'You are the benchmark agent. Answer briefly.';
const MODEL = 'claude-sonnet-4-6';
const FAKE_API_KEY = 'sk-bench-fake';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const holodeckBin = path.join(root, 'packages/holodeck/bin/holodeck.js');
const holodeckDist = path.join(root, 'packages/holodeck/dist/index.js');
const bareScript = path.join(here, 'bare-sdk-query.mjs');
const probeModule = path.join(here, 'child-probe.mjs');
const GNU_TIME = '/usr/bin/time';

const now = () => performance.timeOrigin + performance.now();

class BenchError extends Error {}

function parseOptions() {
  const { values } = parseArgs({
    options: {
      samples: { type: 'string', default: '12' },
      warmup: { type: 'string', default: '2' },
      'latency-ms': { type: 'string', default: '0' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      'usage: node bench/chat-vs-sdk.mjs [--samples N (12)] [--warmup N (2)] [--latency-ms N (0)]\n',
    );
    process.exit(0);
  }
  const integer = (name, min) => integerOption(values, name, min, BenchError);
  return {
    samples: integer('samples', 1),
    warmup: integer('warmup', 0),
    latencyMs: integer('latency-ms', 0),
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

/** One table row: label, median, p90, min, and the ratio of medians (or a note). */
function timingRow(label, samples, ratio) {
  return [label, ms(median(samples)), ms(quantile(samples, 0.9)), ms(Math.min(...samples)), ratio];
}

/** Progress on a terminal only; piped output stays a clean report. */
function progress(text) {
  if (process.stderr.isTTY) process.stderr.write(`\r${text}`);
}

function verdict(level, ratio) {
  return `${level}: ratio ${ratio.toFixed(3)} -> ${ratio <= TARGET_RATIO ? 'PASS' : 'FAIL'} (target <= ${TARGET_RATIO.toFixed(2)})`;
}

// ---------------------------------------------------------------- fixtures

async function createFixtures() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'chat-vs-sdk-'));
  const agentDir = path.join(dir, 'agent');
  await mkdir(agentDir);
  const agentFile = path.join(agentDir, 'agent.yaml');
  await writeFile(
    agentFile,
    [
      'name: bench-agent',
      'model:',
      '  provider: anthropic',
      `  name: ${MODEL}`,
      'instructions:',
      `  inline: ${INSTRUCTIONS}`,
      '',
    ].join('\n'),
  );
  // A fresh HOME per scenario: no user settings or saved sessions, and each side's sessions apart.
  const homes = {};
  for (const name of ['process-holodeck', 'process-bare', 'inprocess-holodeck', 'inprocess-bare']) {
    homes[name] = path.join(dir, `home-${name}`);
    await mkdir(homes[name]);
  }
  return { dir, agentDir, agentFile, homes };
}

/** Checks that the model was asked the same thing by both sides: one request, no tools, no thinking. */
function checkRequest(server, before, label) {
  const added = server.requests.slice(before);
  if (added.length !== 1) {
    throw new BenchError(`${label}: expected 1 agent-loop request to the fake server, got ${added.length}`);
  }
  if (server.unexpected.length) {
    throw new BenchError(
      `${label}: the fake server got unexpected requests: ${describeUnexpected(server.unexpected)}`,
    );
  }
  const [request] = added;
  const problems = requestProblems(request, { instructions: INSTRUCTIONS, model: MODEL });
  if (problems.length) throw new BenchError(`${label}: unexpected request: ${problems.join('; ')}`);
  return request;
}

// ---------------------------------------------------------------- process level

function childEnv(server, home) {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    ANTHROPIC_API_KEY: FAKE_API_KEY,
    ANTHROPIC_BASE_URL: server.url,
    NO_COLOR: '1',
  };
}

/** Spawns one fresh `node` process, waits for it, and checks it printed the expected reply. */
function runChild({ label, args, env, cwd, withTime }) {
  const nodeArgs = ['--import', probeModule, ...args];
  const [command, commandArgs] = withTime
    ? [GNU_TIME, ['-f', 'bench-tree-maxrss-kb=%M', process.execPath, ...nodeArgs]]
    : [process.execPath, nodeArgs];
  return new Promise((resolve, reject) => {
    const startedAt = now();
    const child = spawn(command, commandArgs, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', (error) => reject(new BenchError(`${label}: could not start: ${error.message}`)));
    child.on('close', (code, signal) => {
      const closedAt = now();
      const probeLine = stderr.split('\n').find((line) => line.startsWith('bench-probe '));
      const rssLine = stderr.split('\n').find((line) => line.startsWith('bench-tree-maxrss-kb='));
      const otherStderr = stderr
        .split('\n')
        .filter(
          (line) => line && !line.startsWith('bench-probe ') && !line.startsWith('bench-tree-maxrss-kb='),
        )
        .join('\n');
      if (code !== 0 || stdout.trim() !== EXPECTED_REPLY) {
        reject(
          new BenchError(
            `${label}: run failed (exit ${code ?? signal}); expected stdout "${EXPECTED_REPLY}", got "${stdout.trim()}"${otherStderr ? `\nstderr:\n${otherStderr}` : ''}`,
          ),
        );
        return;
      }
      resolve({
        ms: closedAt - startedAt,
        startedAt,
        closedAt,
        probe: probeLine ? JSON.parse(probeLine.slice('bench-probe '.length)) : undefined,
        treeRssKb: rssLine ? Number(rssLine.split('=')[1]) : undefined,
      });
    });
  });
}

/** Where one process-level sample spent its time, from the probe and the fake server's clock. */
function phasesOf(sample, requestAt) {
  const probe = sample.probe;
  const cli = probe?.children.find((child) => child.command === 'claude');
  if (!probe || !cli) return undefined;
  return {
    'spawn -> node main module': probe.preloaded - sample.startedAt,
    'main -> CLI spawned (imports, config, setup)': cli.spawnedAt - probe.preloaded,
    'CLI spawned -> API request': requestAt - cli.spawnedAt,
    'API request -> CLI exited': cli.exitedAt - requestAt,
    'CLI exited -> node exited': probe.exitAt - cli.exitedAt,
    'node exited -> bench saw close': sample.closedAt - probe.exitAt,
  };
}

async function processLevel({ server, fixtures, samples, warmup, requestTimes }) {
  const withTime = existsSync(GNU_TIME);
  const sides = {
    holodeck: {
      label: 'process: holodeck chat -p',
      args: [holodeckBin, 'chat', fixtures.agentFile, '-p', PROMPT],
      env: childEnv(server, fixtures.homes['process-holodeck']),
      ms: [],
      runs: [],
    },
    bare: {
      label: 'process: bare SDK query()',
      args: [
        bareScript,
        '-p',
        PROMPT,
        '--system',
        INSTRUCTIONS,
        '--model',
        MODEL,
        '--cwd',
        fixtures.agentDir,
      ],
      env: childEnv(server, fixtures.homes['process-bare']),
      ms: [],
      runs: [],
    },
  };
  const total = warmup + samples;
  for (let index = 0; index < total; index++) {
    // ABAB..., starting side alternating per round, to spread drift and noise over both sides
    const order = index % 2 === 0 ? ['holodeck', 'bare'] : ['bare', 'holodeck'];
    for (const name of order) {
      const side = sides[name];
      const before = server.requests.length;
      const run = await runChild({ label: side.label, args: side.args, env: side.env, cwd: root, withTime });
      const request = checkRequest(server, before, side.label);
      if (index < warmup) continue;
      side.ms.push(run.ms);
      side.runs.push({ ...run, phases: phasesOf(run, requestTimes.get(request)) });
    }
    progress(`process level: ${index < warmup ? 'warm-up' : 'sample'} ${index + 1}/${total}  `);
  }
  progress('\n');
  return { ...sides, rssMeasured: withTime };
}

// ---------------------------------------------------------------- in process

async function inProcess({ server, fixtures, samples, warmup }) {
  if (!existsSync(holodeckDist)) {
    throw new BenchError(`${holodeckDist} is missing: build first (npx tsc -b)`);
  }
  // The public API (the backends themselves are not exported): selectBackend picks the Claude
  // backend for this provider: anthropic agent.
  const { loadAgent, selectBackend } = await import(holodeckDist);
  const holodeckHome = fixtures.homes['inprocess-holodeck'];
  /** @type {Record<string, string | undefined>} */
  const agentEnv = { ...childEnv(server, holodeckHome) };
  delete agentEnv.NO_COLOR;
  const agent = await loadAgent(fixtures.agentFile, { env: agentEnv, homeDir: holodeckHome });
  const backend = selectBackend(agent);
  await backend.initialize();
  const bareEnv = bareCliEnv(childEnv(server, fixtures.homes['inprocess-bare']));

  const check = (label, text) => {
    if (text !== EXPECTED_REPLY)
      throw new BenchError(`${label}: expected "${EXPECTED_REPLY}", got "${text}"`);
  };
  const sides = {
    holodeck: {
      label: 'in-process: ClaudeBackend.invokeOnce',
      run: async () => {
        const result = await backend.invokeOnce(PROMPT);
        if (result.is_error) throw new BenchError(`invokeOnce failed: ${result.error_reason}`);
        check('invokeOnce', result.response);
      },
      ms: [],
    },
    bare: {
      label: 'in-process: bare query() loop',
      run: async () =>
        check(
          'bare query()',
          await runBareQuery({
            prompt: PROMPT,
            systemPrompt: INSTRUCTIONS,
            model: MODEL,
            cwd: fixtures.agentDir,
            env: bareEnv,
          }),
        ),
      ms: [],
    },
    full: {
      // What `holodeck chat -p` does after its imports: load agent.yaml, initialize, invoke, tear down.
      label: 'in-process: load+initialize+invokeOnce',
      run: async () => {
        const loaded = await loadAgent(fixtures.agentFile, { env: agentEnv, homeDir: holodeckHome });
        const fresh = selectBackend(loaded);
        try {
          await fresh.initialize();
          const result = await fresh.invokeOnce(PROMPT);
          if (result.is_error) throw new BenchError(`invokeOnce failed: ${result.error_reason}`);
          check('load+initialize+invokeOnce', result.response);
        } finally {
          await fresh.teardown();
        }
      },
      ms: [],
    },
  };
  const total = warmup + samples;
  try {
    for (let index = 0; index < total; index++) {
      const order = index % 2 === 0 ? ['holodeck', 'bare', 'full'] : ['bare', 'full', 'holodeck'];
      for (const name of order) {
        const side = sides[name];
        const before = server.requests.length;
        const startedAt = now();
        await side.run();
        const elapsed = now() - startedAt;
        checkRequest(server, before, side.label);
        if (index >= warmup) side.ms.push(elapsed);
      }
      progress(`in process: ${index < warmup ? 'warm-up' : 'sample'} ${index + 1}/${total}  `);
    }
  } finally {
    await backend.teardown();
  }
  progress('\n');
  return sides;
}

// ---------------------------------------------------------------- main

function phaseTable(result) {
  const phasesOfSide = (side) => side.runs.map((run) => run.phases).filter(Boolean);
  const holodeck = phasesOfSide(result.holodeck);
  const bare = phasesOfSide(result.bare);
  if (!holodeck.length || !bare.length) return 'phases: not measured (no probe output)';
  const names = Object.keys(holodeck[0]);
  const rows = names.map((name) => {
    const h = median(holodeck.map((phases) => phases[name]));
    const b = median(bare.map((phases) => phases[name]));
    return [name, ms(h), ms(b), `${h - b >= 0 ? '+' : ''}${ms(h - b)}`];
  });
  return table(['phase (process level, medians)', 'holodeck ms', 'bare ms', 'delta ms'], rows);
}

function rssTable(result) {
  if (!result.rssMeasured) return `peak RSS: skipped (${GNU_TIME} not found)`;
  const rows = [result.holodeck, result.bare].map((side) => [
    side.label,
    mb(median(side.runs.map((run) => run.probe?.maxRssKb).filter((value) => value !== undefined))),
    mb(median(side.runs.map((run) => run.treeRssKb).filter((value) => value !== undefined))),
  ]);
  return `${table(['peak RSS (medians)', 'node MB', 'largest process MB'], rows)}\n  node = the node process itself; largest process = ${GNU_TIME} %M, the biggest process of the tree (the claude CLI)`;
}

async function main() {
  const options = parseOptions();
  const requestTimes = new Map();
  const server = await startFakeAnthropic({
    repeatLast: true,
    steps: [reply(EXPECTED_REPLY)],
    latencyMs: options.latencyMs,
    onRequest: (request) => requestTimes.set(request, now()),
  });
  const fixtures = await createFixtures();
  try {
    process.stdout.write(
      `chat-vs-sdk: ${options.samples} samples per scenario after ${options.warmup} warm-up runs, interleaved; ` +
        `fake server latency ${options.latencyMs} ms; node ${process.version}, ${os.cpus().length} CPUs\n`,
    );
    const processes = await processLevel({ server, fixtures, ...options, requestTimes });
    const inside = await inProcess({ server, fixtures, ...options });

    const ratio = (side, base) => median(side.ms) / median(base.ms);
    const processRatio = ratio(processes.holodeck, processes.bare);
    const inProcessRatio = ratio(inside.holodeck, inside.bare);
    const rows = [
      timingRow(processes.holodeck.label, processes.holodeck.ms, processRatio.toFixed(3)),
      timingRow(processes.bare.label, processes.bare.ms, '(base)'),
      timingRow(inside.holodeck.label, inside.holodeck.ms, inProcessRatio.toFixed(3)),
      timingRow(inside.bare.label, inside.bare.ms, '(base)'),
      timingRow(inside.full.label, inside.full.ms, ratio(inside.full, inside.bare).toFixed(3)),
    ];
    process.stdout.write(
      [
        '',
        table(['scenario', 'median ms', 'p90 ms', 'min ms', 'ratio'], rows),
        '  ratio = median(holodeck) / median(bare) of the same level',
        '',
        phaseTable(processes),
        '',
        rssTable(processes),
        '',
        verdict('process level (holodeck chat -p vs node bare-sdk-query.mjs)', processRatio),
        verdict('in-process level (invokeOnce vs query())', inProcessRatio),
        '',
      ].join('\n'),
    );
  } finally {
    await server.close();
    await rm(fixtures.dir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  process.stderr.write(
    `\nchat-vs-sdk: benchmark aborted: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  if (!(error instanceof BenchError) && error instanceof Error && error.stack)
    process.stderr.write(`${error.stack}\n`);
  process.exitCode = 1;
}
