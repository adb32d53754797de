#!/usr/bin/env node
// @ts-check
// Turn latency of `holodeck chat` on a terminal (a real pty) against a bare Claude Agent SDK
// streaming-input loop, side by side in one run against one fake Anthropic server, and a
// respawn-per-turn baseline (`holodeck chat -p --resume` for every turn). See bench/README.md.
//
//   node bench/chat-turn-latency.mjs [--turns 10] [--rounds 3] [--latency-ms 300] [--no-respawn]
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { lastUserText, reply, respond, startFakeAnthropic } from '@holodeck/testkit';
import { spawn as spawnPty } from '@lydell/node-pty';
import { entryOf, integerOption, median, table } from './bench-format.mjs';
import { describeUnexpected, requestProblems } from './check-bench-requests.mjs';

const TARGET_OVERHEAD_MS = 300;
const INSTRUCTIONS = 'You are the benchmark agent. Answer briefly.';
const MODEL = 'claude-sonnet-4-6';
const FAKE_API_KEY = 'sk-bench-fake';
/** How long one step (start-up, a turn, an exit) may take before the bench gives up. */
const STEP_TIMEOUT_MS = 30_000;

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const holodeckBin = path.join(root, 'packages/holodeck/bin/holodeck.js');
const bareScript = path.join(here, 'bare-sdk-stream-input.mjs');

const now = () => performance.timeOrigin + performance.now();

class BenchError extends Error {}

function parseOptions() {
  const { values } = parseArgs({
    options: {
      turns: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '3' },
      'latency-ms': { type: 'string', default: '300' },
      'no-respawn': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      'usage: node bench/chat-turn-latency.mjs [--turns N (10)] [--rounds N (3)] [--latency-ms N (300)] [--no-respawn]\n',
    );
    process.exit(0);
  }
  const integer = (name, min) => integerOption(values, name, min, BenchError);
  return {
    turns: integer('turns', 2),
    rounds: integer('rounds', 1),
    latencyMs: integer('latency-ms', 0),
    respawn: !values['no-respawn'],
  };
}

/** The answer to "message N": unique per turn, so each side's output tells the turns apart. */
const answerTo = (turn) => `Reply to message ${turn}.`;

/** Waits until `ready()` holds, re-checked whenever `onChange` fires; fails after STEP_TIMEOUT_MS. */
function waitUntil(what, ready, subscribe, shown = () => '') {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new BenchError(`timed out waiting for ${what}; the output ended with:\n${shown()}`));
    }, STEP_TIMEOUT_MS);
    const check = () => {
      const value = ready();
      if (value === undefined) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(value);
    };
    const unsubscribe = subscribe(check);
    check();
  });
}

/** Output of a child, with the time each chunk arrived, and waits on what it printed. */
class OutputLog {
  text = '';
  chunks = [];
  listeners = new Set();

  add(data) {
    const at = now();
    this.chunks.push({ at, start: this.text.length });
    this.text += data;
    for (const listener of this.listeners) listener();
  }

  /** When the text matching `pattern` at or after `from` first arrived (the chunk holding its start). */
  waitFor(what, pattern, from) {
    return waitUntil(
      what,
      () => {
        pattern.lastIndex = from;
        const match = pattern.exec(this.text);
        if (!match) return undefined;
        const chunk = this.chunks.findLast((each) => each.start <= match.index);
        return { at: chunk?.at ?? now(), end: match.index + match[0].length };
      },
      (listener) => {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
      },
      () => JSON.stringify(this.text.slice(-1500)),
    );
  }
}

/**
 * One conversation of `turns` turns with a streaming side (holodeck in a pty, or the bare loop on
 * pipes): for each turn, Enter → request at the fake server, → first character of the answer, →
 * the turn's end (holodeck: its usage line and the next prompt; bare: the result message).
 */
async function converse({ side, server, turns, send, output, turnEnd }) {
  const samples = [];
  let offset = output.text.length;
  for (let turn = 1; turn <= turns; turn++) {
    const requestsBefore = server.requests.length;
    const enter = now();
    send(`message ${turn}`);
    const first = await output.waitFor(`${side}: turn ${turn}'s answer`, /Reply/g, offset);
    const whole = await output.waitFor(
      `${side}: turn ${turn}'s whole answer`,
      new RegExp(answerTo(turn).replace('.', '\\.'), 'g'),
      offset,
    );
    const end = await output.waitFor(`${side}: the end of turn ${turn}`, turnEnd, whole.end);
    offset = end.end;
    const added = server.requests.slice(requestsBefore);
    checkRequests(side, turn, added, server);
    samples.push({
      turn,
      request: (added[0]?.receivedAt ?? Number.NaN) - enter,
      first: first.at - enter,
      end: end.at - enter,
    });
  }
  return samples;
}

/** Each turn is exactly one agent-loop request: the instructions, no tools, thinking disabled. */
function checkRequests(side, turn, added, server) {
  if (added.length !== 1)
    throw new BenchError(`${side}: turn ${turn} made ${added.length} agent-loop requests, not 1`);
  if (server.unexpected.length)
    throw new BenchError(`${side}: unexpected requests: ${describeUnexpected(server.unexpected)}`);
  const problems = requestProblems(added[0], { instructions: INSTRUCTIONS, model: MODEL });
  if (problems.length) throw new BenchError(`${side}: turn ${turn}: ${problems.join('; ')}`);
}

function childEnv(server, home) {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    ANTHROPIC_API_KEY: FAKE_API_KEY,
    ANTHROPIC_BASE_URL: server.url,
    NO_COLOR: '1',
  };
}

/** `holodeck chat agent.yaml` in a real pseudo-terminal, as a user runs it. */
async function holodeckConversation({ server, fixtures, turns, home }) {
  const pty = spawnPty(process.execPath, [holodeckBin, 'chat', fixtures.agentFile], {
    name: 'xterm-256color',
    cols: 200,
    rows: 50,
    cwd: fixtures.agentDir,
    env: { TERM: 'xterm-256color', ...childEnv(server, home) },
  });
  const output = new OutputLog();
  pty.onData((data) => output.add(data));
  const exited = new Promise((resolve) => pty.onExit(resolve));
  try {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the prompt as the line editor draws it
    await output.waitFor('holodeck: the first prompt', /\r\u001b\[J> /g, 0);
    const samples = await converse({
      side: 'holodeck',
      server,
      turns,
      send: (text) => pty.write(`${text}\r`),
      output,
      // The dim usage line (… out · … · 0.3s) and the next prompt.
      // (The pty turns each \n into \r\n, so the chat's \r\n arrives as \r\r\n.)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the prompt as the line editor draws it
      turnEnd: / out · [^\r\n]*\d+(\.\d+)?s\r*\n(?:\u001b\[[0-9;]*m)*\r\u001b\[J> /g,
    });
    pty.write('/exit\r');
    const exit = await Promise.race([
      exited,
      new Promise((_, reject) =>
        setTimeout(() => reject(new BenchError('holodeck did not exit after /exit')), STEP_TIMEOUT_MS),
      ),
    ]);
    if (exit.exitCode !== 0)
      throw new BenchError(`holodeck exited ${exit.exitCode}:\n${output.text.slice(-2000)}`);
    return samples;
  } finally {
    pty.kill('SIGKILL');
  }
}

/** The bare streaming-input loop: one query(), messages on stdin, deltas on stdout. */
async function bareConversation({ server, fixtures, turns, home }) {
  const child = spawn(
    process.execPath,
    [bareScript, '--system', INSTRUCTIONS, '--model', MODEL, '--cwd', fixtures.agentDir],
    { env: childEnv(server, home), stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const output = new OutputLog();
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (data) => output.add(data));
  child.stderr.setEncoding('utf8').on('data', (data) => {
    stderr += data;
  });
  const exited = new Promise((resolve) => child.on('close', resolve));
  try {
    await output.waitFor('bare: ready', /\[ready\]\n/g, 0);
    const samples = await converse({
      side: 'bare',
      server,
      turns,
      send: (text) => child.stdin.write(`${text}\n`),
      output,
      turnEnd: /\[turn-end\]\n/g,
    });
    child.stdin.end();
    const code = await exited;
    if (code !== 0) throw new BenchError(`bare loop exited ${code}: ${stderr.slice(-1000)}`);
    return samples;
  } finally {
    child.kill('SIGKILL');
  }
}

/** Runs `holodeck chat -p` once; resolves with its output and how long the whole process took. */
function runChatOnce({ args, env, cwd }) {
  return new Promise((resolve, reject) => {
    const started = now();
    const child = spawn(process.execPath, [holodeckBin, 'chat', ...args], {
      env,
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (data) => {
      stdout += data;
    });
    child.stderr.setEncoding('utf8').on('data', (data) => {
      stderr += data;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new BenchError(`holodeck chat -p exited ${code}: ${stderr.slice(-1000)}`));
      else resolve({ stdout, elapsed: now() - started });
    });
  });
}

/** The respawn baseline: every turn a new `holodeck chat -p … --resume <id>` process. */
async function respawnConversation({ server, fixtures, turns, home }) {
  const env = childEnv(server, home);
  const cwd = fixtures.agentDir;
  const samples = [];
  let sessionId;
  for (let turn = 1; turn <= turns; turn++) {
    const requestsBefore = server.requests.length;
    const args = [
      fixtures.agentFile,
      '-p',
      `message ${turn}`,
      '--json',
      ...(sessionId ? ['--resume', sessionId] : []),
    ];
    const started = now();
    const run = await runChatOnce({ args, env, cwd });
    const result = JSON.parse(run.stdout);
    if (result.response !== answerTo(turn))
      throw new BenchError(`respawn: turn ${turn} answered ${JSON.stringify(result.response)}`);
    sessionId = result.session_id;
    const added = server.requests.slice(requestsBefore);
    checkRequests('respawn', turn, added, server);
    if (turn > 1 && !JSON.stringify(added[0]?.body?.messages ?? []).includes(answerTo(turn - 1)))
      throw new BenchError(`respawn: turn ${turn} was sent without the conversation so far`);
    samples.push({
      turn,
      request: (added[0]?.receivedAt ?? Number.NaN) - started,
      first: Number.NaN,
      end: run.elapsed,
    });
  }
  return samples;
}

async function createFixtures() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'chat-turn-latency-'));
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
  return { dir, agentDir, agentFile };
}

const ms = (value) => (value === undefined || Number.isNaN(value) ? '-' : value.toFixed(0));
const ratio = (a, b) =>
  a === undefined || b === undefined || Number.isNaN(a) || Number.isNaN(b) ? '-' : (a / b).toFixed(2);

async function main() {
  const options = parseOptions();
  const fixtures = await createFixtures();
  const received = new WeakMap();
  const server = await startFakeAnthropic({
    steps: [
      respond((request) => {
        const turn = /message (\d+)/.exec(lastUserText(request))?.[1] ?? '?';
        return reply(answerTo(turn));
      }),
    ],
    repeatLast: true,
    latencyMs: options.latencyMs,
    onRequest: (request) => received.set(request, now()),
  });
  // The server records requests; the arrival time is kept beside each one.
  const requestsOf = () =>
    server.requests.map((request) =>
      Object.assign(Object.create(request), { receivedAt: received.get(request) }),
    );
  const view = {
    url: server.url,
    get requests() {
      return requestsOf();
    },
    get unexpected() {
      return server.unexpected;
    },
  };
  const sides = [
    { name: 'holodeck chat (pty)', run: holodeckConversation },
    { name: 'bare SDK streaming input', run: bareConversation },
    ...(options.respawn ? [{ name: 'respawn per turn (chat -p --resume)', run: respawnConversation }] : []),
  ];
  /** @type {Map<string, any[]>} */
  const results = new Map(sides.map((side) => [side.name, []]));
  try {
    for (let round = 1; round <= options.rounds; round++) {
      for (const side of sides) {
        if (process.stderr.isTTY)
          process.stderr.write(`\rround ${round}/${options.rounds}: ${side.name}…      `);
        const home = path.join(fixtures.dir, `home-${round}-${side.name.replace(/\W+/g, '-')}`);
        await mkdir(home);
        const samples = await side.run({ server: view, fixtures, turns: options.turns, home });
        entryOf(results, side.name).push(...samples.filter((sample) => sample.turn >= 2));
      }
    }
    if (process.stderr.isTTY) process.stderr.write('\r\u001b[K');
    const medianOf = (name, field) =>
      median(
        entryOf(results, name)
          .map((sample) => sample[field])
          .filter((value) => !Number.isNaN(value)),
      );
    const bare = 'bare SDK streaming input';
    const rows = sides.map((side) => [
      side.name,
      ms(medianOf(side.name, 'request')),
      ms(medianOf(side.name, 'first')),
      ms(medianOf(side.name, 'end')),
      ms(medianOf(side.name, 'end') - options.latencyMs),
      ratio(medianOf(side.name, 'first'), medianOf(bare, 'first')),
      ratio(medianOf(side.name, 'end'), medianOf(bare, 'end')),
    ]);
    process.stdout.write(
      `chat turn latency: turns 2-${options.turns} of ${options.rounds} conversation(s) per side, model latency ${options.latencyMs} ms (medians, ms)\n\n`,
    );
    process.stdout.write(
      `${table(
        [
          'side',
          'Enter→request',
          'Enter→first char',
          'Enter→turn end',
          'over model',
          'first / bare',
          'end / bare',
        ],
        rows,
      )}\n\n`,
    );
    const overhead = medianOf('holodeck chat (pty)', 'end') - options.latencyMs;
    process.stdout.write(
      `holodeck chat: ${ms(overhead)} ms per turn over the model's own latency (target <= ${TARGET_OVERHEAD_MS} ms): ${overhead <= TARGET_OVERHEAD_MS ? 'met' : 'not met'}\n`,
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
    `${error instanceof BenchError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
}
