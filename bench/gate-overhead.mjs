#!/usr/bin/env node
// The Novarch hook gate's overhead per read and per passed write, against the same calls without
// the gate, side by side in one run, at two levels: the gate's hooks called in process, and a
// small agent run through the real Claude CLI against the fake model server. See bench/README.md.
//
//   node bench/gate-overhead.mjs [--reads 2000] [--writes 500] [--samples 10] [--cli-reads 20]
import { openSync, readSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createSdkMcpServer, query, tool } from '@anthropic-ai/claude-agent-sdk';
import { fakeCliEnv, reply, startFakeAnthropic, toolResults, toolUse } from '@holodeck/testkit';
import { z } from 'zod';
import { integerOption, table } from './bench-format.mjs';

/** Issue 14's targets: read overhead p99 ≤ 2 ms, passed write p99 ≤ 5 ms, same durability. */
const TARGET_READ_P99_MS = 2;
const TARGET_WRITE_P99_MS = 5;

const here = path.dirname(fileURLToPath(import.meta.url));
const novarchDist = path.join(here, '../packages/novarch/dist/index.js');

const LOOKUP = 'mcp__cs__lookup_customer';
const REFUND = 'mcp__cs__issue_refund';
/** Passes TEAM-2 (amount <= 500); TEAM-1 passes thanks to the lookup of the same customer. */
const REFUND_AMOUNT = 120;

/** The customer-service rules of the gate e2e fixture (packages/novarch/test/e2e/support/gate-fixture.ts). */
const RULES_FILE = path.join(here, '../packages/novarch/test/fixtures/rules/cs-ops-gate.rules.yaml');

const SCOPE = { tenantId: 'bench', teamId: 'cs-ops', agentId: 'bench-bot' };

const GATE_OPTIONS = {
  toolKinds: { [LOOKUP]: 'read', [REFUND]: 'write' },
  writeSpecs: {
    [REFUND]: {
      actionType: 'issue_refund',
      contextBuilder: (args) => {
        if (typeof args.customer_id !== 'string' || typeof args.amount !== 'number')
          throw new Error('customer_id and amount are required');
        return { recordId: args.customer_id, summary: `refund ${args.customer_id}`, amount: args.amount };
      },
    },
  },
};

/** `--output-bytes` pads each lookup's output: real tool outputs are often kilobytes of JSON. */
let outputPadding = '';
const lookupOutput = (customer) => ({
  content: [{ type: 'text', text: `customer ${customer}: in good standing${outputPadding}` }],
});
const refundOutput = (customer, amount) => ({
  content: [{ type: 'text', text: `refunded ${amount} to ${customer}` }],
});

class BenchError extends Error {}

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code, text) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);

function parseOptions() {
  const { values } = parseArgs({
    options: {
      reads: { type: 'string', default: '2000' },
      writes: { type: 'string', default: '500' },
      'session-reads': { type: 'string', default: '100' },
      evidence: { type: 'string', default: '20' },
      samples: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '1' },
      'cli-reads': { type: 'string', default: '20' },
      'output-bytes': { type: 'string', default: '0' },
      novarch: { type: 'string' },
      compare: { type: 'string' },
      blocks: { type: 'string', default: '4' },
      dir: { type: 'string' },
      'skip-cli': { type: 'boolean', default: false },
      'skip-hook': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      'usage: node bench/gate-overhead.mjs [--reads N (2000)] [--writes N (500)] [--session-reads N (100)]\n' +
        '                                    [--evidence N (20)] [--samples N (10)] [--warmup N (1)]\n' +
        '                                    [--cli-reads K (20)] [--output-bytes N (0)] [--dir DIR (os.tmpdir())]\n' +
        '                                    [--skip-cli] [--skip-hook] [--novarch path/to/dist/index.js (a patched copy)]\n' +
        '                                    [--compare path/to/other/dist/index.js (before/after at the hook level)] [--blocks N (4)]\n',
    );
    process.exit(0);
  }
  const integer = (name, min) => integerOption(values, name, min, BenchError);
  return {
    reads: integer('reads', 1),
    writes: integer('writes', 1),
    sessionReads: integer('session-reads', 1),
    evidence: integer('evidence', 1),
    samples: integer('samples', 1),
    warmup: integer('warmup', 0),
    cliReads: integer('cli-reads', 1),
    dir: values.dir ?? os.tmpdir(),
    skipCli: values['skip-cli'],
    skipHook: values['skip-hook'],
    outputBytes: integer('output-bytes', 0),
    novarch: path.resolve(values.novarch ?? novarchDist),
    compare: values.compare === undefined ? undefined : path.resolve(values.compare),
    blocks: integer('blocks', 1),
  };
}

// ---------------------------------------------------------------- statistics and printing

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  // nearest rank: the smallest value with at least q of the samples at or below it
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}

const fixed = (value, digits) => (value === undefined ? '-' : value.toFixed(digits));
const loadText = (load) => load.map((value) => value.toFixed(2)).join(' ');
const QUANTILES = [
  ['p50', 0.5],
  ['p99', 0.99],
  ['max', 1],
];

/** Rows of one kind of call: the gated time, the baseline time and their difference at each quantile. */
function overheadRows(label, gated, baseline, digits) {
  const at = (values) => QUANTILES.map(([, q]) => quantile(values, q));
  const g = at(gated);
  const b = at(baseline);
  return [
    [`${label}: gated`, gated.length, ...g.map((value) => fixed(value, digits))],
    [`${label}: baseline`, baseline.length, ...b.map((value) => fixed(value, digits))],
    [`${label}: overhead`, '', ...g.map((value, index) => fixed(value - b[index], digits))],
  ];
}

/** Progress on a terminal only; piped output stays a clean report. */
function progress(text) {
  if (process.stderr.isTTY) process.stderr.write(`\r${text}\u001b[K`);
}

function verdict(text, passed) {
  return `${text} -> ${passed ? paint('32', 'PASS') : paint('31', 'FAIL')}`;
}

/** The file system the store lives on (tmpfs makes fsync free, so say which). */
async function fileSystemOf(dir) {
  try {
    const mounts = (await readFile('/proc/mounts', 'utf8'))
      .split('\n')
      .map((line) => line.split(' '))
      .filter((fields) => fields.length > 2);
    const resolved = path.resolve(dir);
    let best;
    for (const [device, mountPoint, type] of mounts) {
      const inside =
        resolved === mountPoint || resolved.startsWith(mountPoint === '/' ? '/' : `${mountPoint}/`);
      if (inside && (!best || mountPoint.length >= best.mountPoint.length))
        best = { device, mountPoint, type };
    }
    return best ? `${best.type} (${best.device} on ${best.mountPoint})` : 'unknown';
  } catch {
    return 'unknown';
  }
}

const hrMs = (start) => Number(process.hrtime.bigint() - start) / 1e6;

/**
 * This thread's time on a CPU and waiting for one (ns), from /proc/self/schedstat (the main
 * thread, where better-sqlite3 runs). With the wall time it splits a call into CPU, run-queue
 * wait (other programs had the cores) and blocked (I/O such as an fsync). ~12 µs a read, taken
 * outside the timed span. Zeros where /proc is missing.
 */
const schedstat = (() => {
  let fd;
  try {
    fd = openSync('/proc/self/schedstat', 'r');
  } catch {
    return () => [0, 0];
  }
  const buffer = Buffer.alloc(128);
  return () => {
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const [run, wait] = buffer.toString('latin1', 0, length).split(' ');
    return [Number(run), Number(wait)];
  };
})();

/** Garbage-collection pauses of this process ([start, end] on performance.now()), to match against calls. */
const gcPauses = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcPauses.push([entry.startTime, entry.startTime + entry.duration]);
}).observe({ entryTypes: ['gc'] });

/** Milliseconds of GC pause inside [from, to]. */
function gcWithin(from, to) {
  let total = 0;
  for (const [start, end] of gcPauses) total += Math.max(0, Math.min(end, to) - Math.max(start, from));
  return total;
}

// ---------------------------------------------------------------- hook level

const HOOK_BASE = { session_id: 'bench-sdk-session', transcript_path: '/tmp/transcript.jsonl', cwd: '/tmp' };
const SIGNAL = new AbortController().signal;

/** The PreToolUse and PostToolUse callbacks of a hooks config, as the SDK would call them. */
function callbacksOf(hooks) {
  const only = (event) => {
    const matchers = hooks[event];
    const callback = matchers?.[0]?.hooks[0];
    if (matchers?.length !== 1 || matchers[0].hooks.length !== 1 || !callback)
      throw new BenchError(`expected one ${event} hook`);
    return callback;
  };
  return { pre: only('PreToolUse'), post: only('PostToolUse') };
}

/** True when a hook output lets the call run (no opinion). */
const isNoOpinion = (output) => Object.keys(output).length === 0;
const denyReason = (output) => output?.hookSpecificOutput?.permissionDecisionReason ?? JSON.stringify(output);

/**
 * One tool call as the CLI makes it: PreToolUse, the tool when not refused, PostToolUse (with
 * hand-built inputs shaped as the CLI sends them, as test/unit/gate/support/hook-calls.ts does).
 */
async function toolCall(callbacks, toolName, toolInput, toolUseId, body) {
  const before = await callbacks.pre(
    {
      ...HOOK_BASE,
      hook_event_name: 'PreToolUse',
      tool_name: toolName,
      tool_input: toolInput,
      tool_use_id: toolUseId,
    },
    toolUseId,
    { signal: SIGNAL },
  );
  if (!isNoOpinion(before)) return { refused: denyReason(before) };
  const response = body(toolInput);
  const after = await callbacks.post(
    {
      ...HOOK_BASE,
      hook_event_name: 'PostToolUse',
      tool_name: toolName,
      tool_input: toolInput,
      tool_use_id: toolUseId,
      tool_response: response,
    },
    toolUseId,
    { signal: SIGNAL },
  );
  if (!isNoOpinion(after)) return { refused: `PostToolUse answered ${JSON.stringify(after)}` };
  return { response };
}

/** Times one tool call ({wall, cpu, wait} in ms); aborts the bench if it was refused. */
async function timedCall(label, callbacks, toolName, toolInput, toolUseId, body) {
  const [run0, wait0] = schedstat();
  const from = performance.now();
  const start = process.hrtime.bigint();
  const result = await toolCall(callbacks, toolName, toolInput, toolUseId, body);
  const wall = hrMs(start);
  const to = performance.now();
  const [run1, wait1] = schedstat();
  if (result.refused !== undefined)
    throw new BenchError(`${label}: ${toolName} was refused: ${result.refused}`);
  return { wall, cpu: (run1 - run0) / 1e6, wait: (wait1 - wait0) / 1e6, from, to };
}

/** A no-op hook of the gate's shape: same events, same matcher options, answers no opinion. */
function baselineHooks() {
  const noop = async () => ({});
  return {
    PreToolUse: [{ hooks: [noop], timeout: 60, onFailure: 'block' }],
    PostToolUse: [{ hooks: [noop], onFailure: 'block' }],
    PostToolUseFailure: [{ hooks: [noop], onFailure: 'block' }],
  };
}

async function openWorld(novarch, dir, storeOptions = {}) {
  const file = path.join(dir, 'novarch.db');
  const store = await novarch.openSqliteStore(file, storeOptions);
  const rules = [await novarch.loadRulesFile(RULES_FILE)];
  const engine = new novarch.NovarchEngine({ store, rules, holdWindowSeconds: 5, pollIntervalMs: 50 });
  // In WAL mode only a checkpoint writes the main database file: a new mtime means one ran.
  let lastWrite = statSync(file, { bigint: true }).mtimeNs;
  const checkpointed = () => {
    const mtime = statSync(file, { bigint: true }).mtimeNs;
    const changed = mtime !== lastWrite;
    lastWrite = mtime;
    return changed;
  };
  return { store, rules, engine, checkpointed };
}

/** Runs `fn(gate, callbacks, sessionId)` in a fresh governed session with an open gate. */
function withGate(novarch, engine, fn) {
  return novarch.augur.session({ ...SCOPE, engine }, async () => {
    const gate = await new novarch.NovarchHookGate(GATE_OPTIONS).open();
    try {
      const sessionId = novarch.augur.current().record.id;
      return await fn(gate, callbacksOf(gate.hooksConfig()), sessionId);
    } finally {
      await gate.close();
    }
  });
}

async function checkEvidence(store, sessionId, customers, label) {
  const evidence = await store.listEvidence(sessionId);
  const got = evidence.map(
    (record) => `${record.toolName}(${record.input?.customer_id})${record.isError ? '!' : ''}`,
  );
  const want = customers.map((customer) => `${LOOKUP}(${customer})`);
  if (got.join(',') !== want.join(','))
    throw new BenchError(
      `${label}: evidence of session ${sessionId} is [${got.slice(0, 5).join(', ')}${got.length > 5 ? ', …' : ''}] (${got.length}), expected ${want.length} lookups in order`,
    );
}

/**
 * Reads in sessions of `sessionReads` calls; every call is timed with the gate and with the
 * baseline, alternately first, and every session's evidence is checked afterwards.
 */
async function hookReads(novarch, world, { count, sessionReads, timed }) {
  const gated = [];
  const baseline = [];
  const base = callbacksOf(baselineHooks());
  let done = 0;
  for (let round = 0; done < count; round++) {
    const inRound = Math.min(sessionReads, count - done);
    await withGate(novarch, world.engine, async (gate, callbacks, sessionId) => {
      const customers = [];
      for (let index = 0; index < inRound; index++) {
        const customer = `C-${timed ? 'r' : 'w'}${round}-${index}`;
        customers.push(customer);
        const input = () => ({ customer_id: customer });
        const id = `toolu_read_${round}_${index}`;
        const runGate = async () => {
          world.checkpointed();
          const call = await timedCall('gated read', callbacks, LOOKUP, input(), id, () =>
            lookupOutput(customer),
          );
          gated.push({ ...call, checkpoint: world.checkpointed() });
        };
        const runBase = async () =>
          baseline.push(
            await timedCall('baseline read', base, LOOKUP, input(), id, () => lookupOutput(customer)),
          );
        if ((done + index) % 2 === 0) {
          await runGate();
          await runBase();
        } else {
          await runBase();
          await runGate();
        }
      }
      if (gate.killed) throw new BenchError('reads: the gate latched the session');
      await checkEvidence(world.store, sessionId, customers, 'reads');
    });
    done += inRound;
    if (timed) progress(`hook level: reads ${done}/${count}`);
  }
  return { gated, baseline };
}

/**
 * Passed writes, each in a fresh session after `evidence` lookups (the first of the refunded
 * customer, so TEAM-1 passes; amount 120 so TEAM-2 passes). Only the write is timed; the audit
 * must show one action with a pass verdict, and the refund must have run after it.
 */
async function hookWrites(novarch, world, { count, evidence, timed }) {
  const gated = [];
  const baseline = [];
  const base = callbacksOf(baselineHooks());
  for (let index = 0; index < count; index++) {
    const customer = `W-${timed ? 't' : 'w'}${index}`;
    await withGate(novarch, world.engine, async (gate, callbacks, sessionId) => {
      const customers = [customer];
      for (let other = 1; other < evidence; other++) customers.push(`${customer}-other-${other}`);
      for (const [position, looked] of customers.entries()) {
        await timedCall(
          'lookup before a write',
          callbacks,
          LOOKUP,
          { customer_id: looked },
          `toolu_l_${index}_${position}`,
          () => lookupOutput(looked),
        );
      }
      const refunds = { gated: [], baseline: [] };
      const input = () => ({ customer_id: customer, amount: REFUND_AMOUNT, reasoning: 'the customer asked' });
      const id = `toolu_write_${index}`;
      const runGate = async () => {
        world.checkpointed();
        const call = await timedCall('gated write', callbacks, REFUND, input(), id, (args) => {
          refunds.gated.push({ ...args, at: Date.now() });
          return refundOutput(args.customer_id, args.amount);
        });
        gated.push({ ...call, checkpoint: world.checkpointed() });
      };
      const runBase = async () =>
        baseline.push(
          await timedCall('baseline write', base, REFUND, input(), id, (args) => {
            refunds.baseline.push(args);
            return refundOutput(args.customer_id, args.amount);
          }),
        );
      if (index % 2 === 0) {
        await runGate();
        await runBase();
      } else {
        await runBase();
        await runGate();
      }
      if (refunds.gated.length !== 1 || refunds.baseline.length !== 1)
        throw new BenchError(
          `write ${index}: the refund ran ${refunds.gated.length} times gated, ${refunds.baseline.length} without`,
        );
      await checkPassedWrite(world.store, sessionId, customer, refunds.gated[0].at, `write ${index}`);
      await checkEvidence(world.store, sessionId, customers, `write ${index}`);
      if (gate.killed) throw new BenchError(`write ${index}: the gate latched the session`);
    });
    if (timed && index % 10 === 9) progress(`hook level: writes ${index + 1}/${count}`);
  }
  return { gated, baseline };
}

/** The session's audit: exactly one refund, judged pass on TEAM-1 and TEAM-2 before the refund ran. */
async function checkPassedWrite(store, sessionId, customer, ranAt, label) {
  const entries = await store.audit({ sessionId });
  if (entries.length !== 1)
    throw new BenchError(`${label}: expected 1 audited action, got ${entries.length}`);
  const [entry] = entries;
  const kind = entry.verdict?.verdict.kind;
  const rules = entry.verdict?.verdict.citations.ruleIds.join(',');
  if (kind !== 'pass' || rules !== 'TEAM-1,TEAM-2' || entry.action.context.recordId !== customer)
    throw new BenchError(
      `${label}: expected a pass on TEAM-1,TEAM-2 for ${customer}, got ${kind} [${rules}] for ${entry.action.context.recordId}`,
    );
  if (Date.parse(entry.verdict.decidedAt) > ranAt)
    throw new BenchError(`${label}: the refund ran before the verdict was recorded`);
}

/**
 * What a gated call does, each part timed alone on the same store: the per-call kill check, the
 * evidence insert, and the steps of a write's judgement (action insert, evidence list, CEL judge,
 * verdict insert with synchronous = FULL, i.e. a WAL fsync).
 */
async function hookParts(novarch, world, { count, evidence }) {
  const parts = {
    'isKilled (getSession)': [],
    recordEvidence: [],
    recordAction: [],
    [`listEvidence (${evidence} rows)`]: [],
    [`judgeAction (CEL, ${evidence} evidence)`]: [],
    'recordVerdict (FULL: fsync)': [],
  };
  const names = Object.keys(parts);
  const { store, engine, rules } = world;
  const session = await engine.openSession(SCOPE);
  for (let index = 0; index < evidence; index++) {
    await store.recordEvidence({
      sessionId: session.id,
      toolName: LOOKUP,
      input: { customer_id: index === 0 ? 'P-0' : `P-${index}` },
      output: lookupOutput('P'),
      isError: false,
      startedAt: new Date().toISOString(),
      finishedAt: new Date().toISOString(),
    });
  }
  const scratch = await engine.openSession(SCOPE);
  const time = async (name, work) => {
    const start = process.hrtime.bigint();
    const result = await work();
    parts[name].push(hrMs(start));
    return result;
  };
  for (let index = 0; index < count; index++) {
    await time(names[0], () => engine.isKilled(session.id));
    await time(names[1], () =>
      store.recordEvidence({
        sessionId: scratch.id,
        toolName: LOOKUP,
        input: { customer_id: `S-${index}` },
        output: lookupOutput(`S-${index}`),
        isError: false,
        startedAt: new Date().toISOString(),
        finishedAt: new Date().toISOString(),
      }),
    );
    const action = await time(names[2], () =>
      store.recordAction({
        sessionId: session.id,
        actionType: 'issue_refund',
        toolName: REFUND,
        input: { customer_id: 'P-0', amount: REFUND_AMOUNT },
        context: { recordId: 'P-0', summary: 'refund P-0', amount: REFUND_AMOUNT },
        reasoning: 'the customer asked',
      }),
    );
    const listed = await time(names[3], () => store.listEvidence(session.id));
    const judged = await time(names[4], () =>
      novarch.judgeAction({ action, evidence: listed, session, rules }),
    );
    if (judged.kind !== 'pass')
      throw new BenchError(`parts: the judge said ${judged.kind}: ${judged.citations.rationale}`);
    await time(names[5], () =>
      store.recordVerdict({ actionId: action.id, sessionId: session.id, verdict: judged, source: 'judge' }),
    );
  }
  return parts;
}

async function hookLevel(novarch, dir, options) {
  const world = await openWorld(novarch, dir);
  try {
    // warm-up: JIT, SQLite page cache, CEL compilation; not timed
    progress('hook level: warm-up');
    await hookReads(novarch, world, {
      count: Math.min(200, options.reads),
      sessionReads: options.sessionReads,
      timed: false,
    });
    await hookWrites(novarch, world, {
      count: Math.min(20, options.writes),
      evidence: options.evidence,
      timed: false,
    });
    const reads = await hookReads(novarch, world, {
      count: options.reads,
      sessionReads: options.sessionReads,
      timed: true,
    });
    const writes = await hookWrites(novarch, world, {
      count: options.writes,
      evidence: options.evidence,
      timed: true,
    });
    progress('hook level: parts');
    const parts = await hookParts(novarch, world, { count: options.writes, evidence: options.evidence });
    progress('');
    return { reads, writes, parts };
  } finally {
    await world.store.close();
  }
}

/**
 * The same hook-level calls on several variants side by side in one run (`--compare`): each
 * variant has its own store in its own folder; after a warm-up of each, the reads and writes are
 * run in `--blocks` blocks, the variants taking turns within each block (the order rotating), so
 * a change of machine load falls on all of them alike.
 */
async function hookComparison(variants, dir, options) {
  const worlds = [];
  for (const [index, variant] of variants.entries()) {
    const folder = path.join(dir, `variant-${index}`);
    await mkdir(folder);
    worlds.push({ ...variant, world: await openWorld(variant.novarch, folder, variant.storeOptions) });
  }
  try {
    for (const { novarch, world } of worlds) {
      progress('comparison: warm-up');
      await hookReads(novarch, world, {
        count: Math.min(200, options.reads),
        sessionReads: options.sessionReads,
        timed: false,
      });
      await hookWrites(novarch, world, {
        count: Math.min(20, options.writes),
        evidence: options.evidence,
        timed: false,
      });
    }
    const results = worlds.map(() => ({
      reads: { gated: [], baseline: [] },
      writes: { gated: [], baseline: [] },
    }));
    const reads = Math.max(1, Math.floor(options.reads / options.blocks));
    const writes = Math.max(1, Math.floor(options.writes / options.blocks));
    for (let block = 0; block < options.blocks; block++) {
      for (let turn = 0; turn < worlds.length; turn++) {
        const index = (block + turn) % worlds.length;
        const { novarch, world } = worlds[index];
        progress(`comparison: block ${block + 1}/${options.blocks}, ${worlds[index].label}`);
        const read = await hookReads(novarch, world, {
          count: reads,
          sessionReads: options.sessionReads,
          timed: false,
        });
        const write = await hookWrites(novarch, world, {
          count: writes,
          evidence: options.evidence,
          timed: false,
        });
        for (const kind of ['gated', 'baseline']) {
          results[index].reads[kind].push(...read[kind]);
          results[index].writes[kind].push(...write[kind]);
        }
      }
    }
    progress('');
    return worlds.map(({ label }, index) => ({ label, ...results[index] }));
  } finally {
    for (const { world } of worlds) await world.store.close();
  }
}

function comparisonReport(compared, options) {
  const at = (calls, baseline, of, q) => fixed(overheadAt(of(calls), of(baseline), q), 3);
  const rows = compared.map(({ label, reads, writes }) => [
    label,
    at(reads.gated, reads.baseline, walls, 0.5),
    at(reads.gated, reads.baseline, walls, 0.99),
    at(reads.gated, reads.baseline, ownTimes, 0.5),
    at(reads.gated, reads.baseline, ownTimes, 0.99),
    reads.gated.filter((call) => call.checkpoint).length,
    at(writes.gated, writes.baseline, walls, 0.5),
    at(writes.gated, writes.baseline, walls, 0.99),
    at(writes.gated, writes.baseline, ownTimes, 0.5),
    at(writes.gated, writes.baseline, ownTimes, 0.99),
  ]);
  return [
    `0. before/after, side by side: per variant ${compared[0].reads.gated.length} reads and ${compared[0].writes.gated.length} passed writes in ${options.blocks} blocks, the variants taking turns`,
    '',
    table(
      [
        'overhead (gated - baseline), ms',
        'read p50',
        'read p99',
        'own p50',
        'own p99',
        'ckpt',
        'write p50',
        'write p99',
        'own p50',
        'own p99',
      ],
      rows,
    ),
    '  own = less CPU wait (what the call costs on an idle machine); ckpt = reads during which the database file was',
    "  checkpointed (inline: by that read's own commit; background: by the worker thread, beside the call)",
  ].join('\n');
}

// ---------------------------------------------------------------- through the real CLI

/**
 * One agent run through query(): K lookups, then one refund of the first customer, then a reply.
 * A timing hook (first matcher of each event, so it runs before the gate's) records when the CLI
 * asked the PreToolUse and PostToolUse hooks; the MCP tools record when they ran; the fake server
 * records when each model request arrived. All on this process's clock.
 */
async function cliRun({ novarch, engine, store, server, home, mode, reads, sample }) {
  const gated = mode === 'gated';
  const customers = Array.from({ length: reads }, (_, index) => `K-${sample}-${mode}-${index}`);
  const target = customers[0];
  const steps = customers.map((customer, index) =>
    toolUse(LOOKUP, { customer_id: customer }, { id: `toolu_lookup_${index}` }),
  );
  steps.push(
    toolUse(
      REFUND,
      { customer_id: target, amount: REFUND_AMOUNT, reasoning: 'the customer asked' },
      { id: 'toolu_refund' },
    ),
    reply('done'),
  );
  server.reset();
  server.script(...steps);

  const marks = new Map(); // tool_use_id -> { pre, post, toolStart, toolEnd }
  const mark = (id, name) => {
    const entry = marks.get(id) ?? {};
    if (entry[name] !== undefined) throw new BenchError(`tool call ${id}: ${name} seen twice`);
    entry[name] = performance.now();
    marks.set(id, entry);
  };
  const toolRuns = [];
  const timingHook = (name) => async (input) => {
    mark(input.tool_use_id, name);
    return {};
  };
  const mcp = createSdkMcpServer({
    name: 'cs',
    tools: [
      tool('lookup_customer', 'Look up a customer', { customer_id: z.string() }, async ({ customer_id }) => {
        toolRuns.push({ tool: 'lookup', customer_id, at: performance.now(), wall: Date.now() });
        return lookupOutput(customer_id);
      }),
      tool(
        'issue_refund',
        'Issue a refund',
        { customer_id: z.string(), amount: z.number(), reasoning: z.string().optional() },
        async ({ customer_id, amount }) => {
          toolRuns.push({ tool: 'refund', customer_id, amount, at: performance.now(), wall: Date.now() });
          return refundOutput(customer_id, amount);
        },
      ),
    ],
  });

  const runQuery = async (gate) => {
    const hooks = {
      PreToolUse: [{ hooks: [timingHook('pre')] }],
      PostToolUse: [{ hooks: [timingHook('post')] }],
    };
    // the gate's matchers, or no-op matchers of the same shape, after the timing hook
    const extra = gate ? gate.hooksConfig() : mode === 'noop' ? baselineHooks() : undefined;
    if (extra) {
      hooks.PreToolUse.push(...extra.PreToolUse);
      hooks.PostToolUse.push(...extra.PostToolUse);
      hooks.PostToolUseFailure = extra.PostToolUseFailure;
    }
    let result;
    const startedAt = performance.now();
    for await (const message of query({
      prompt: 'Help the customer.',
      options: {
        env: fakeCliEnv({ baseUrl: server.url, home }),
        tools: [],
        settingSources: [],
        thinking: { type: 'disabled' },
        mcpServers: { cs: mcp },
        permissionMode: 'bypassPermissions',
        allowDangerouslySkipPermissions: true,
        hooks,
      },
    })) {
      if (message.type === 'result') result = message;
    }
    const totalMs = performance.now() - startedAt;
    if (result?.subtype !== 'success' || result.is_error)
      throw new BenchError(`${mode} run failed: ${JSON.stringify(result ?? 'no result').slice(0, 400)}`);
    return totalMs;
  };

  let totalMs;
  let sessionId;
  if (gated) {
    totalMs = await novarch.augur.session({ ...SCOPE, engine }, async () => {
      const gate = await new novarch.NovarchHookGate(GATE_OPTIONS).open();
      try {
        sessionId = novarch.augur.current().record.id;
        const ms = await runQuery(gate);
        if (gate.killed) throw new BenchError('gated run: the session latched');
        return ms;
      } finally {
        await gate.close();
      }
    });
  } else {
    totalMs = await runQuery(undefined);
  }

  // ---- correctness
  const label = `${SIDE_LABELS[mode]} run ${sample}`;
  try {
    server.assertComplete();
  } catch (error) {
    throw new BenchError(`${label}: the fake server: ${error.message}`);
  }
  if (server.requests.length !== reads + 2)
    throw new BenchError(`${label}: ${server.requests.length} model requests, expected ${reads + 2}`);
  const results = toolResults(server.requests.at(-1));
  const bad = results.filter((sent) => sent.isError || sent.text.includes('Novarch'));
  if (results.length !== reads + 1 || bad.length)
    throw new BenchError(
      `${label}: the model saw ${results.length} tool results (expected ${reads + 1})${bad.length ? `; refused or failed: ${bad.map((sent) => `${sent.toolUseId}: ${sent.text}`).join('; ')}` : ''}`,
    );
  const ran = toolRuns.map((run) => `${run.tool}(${run.customer_id})`).join(',');
  const expected = [...customers.map((customer) => `lookup(${customer})`), `refund(${target})`].join(',');
  if (ran !== expected) throw new BenchError(`${label}: tools ran [${ran}], expected [${expected}]`);
  const ids = [
    ...steps.slice(0, -1).map((_, index) => (index < reads ? `toolu_lookup_${index}` : 'toolu_refund')),
  ];
  for (const id of ids) {
    const entry = marks.get(id);
    if (entry?.pre === undefined || entry.post === undefined)
      throw new BenchError(`${label}: the timing hook missed ${id} (${JSON.stringify(entry)})`);
  }
  if (gated) {
    await checkEvidence(store, sessionId, customers, label);
    await checkPassedWrite(store, sessionId, target, toolRuns.at(-1).wall, label);
  }

  // ---- per tool call: pre hook -> tool -> post hook -> next model request (the tool result sent)
  const requestAt = server.requests.map((request) => {
    const at = requestTimes.get(request);
    if (at === undefined) throw new BenchError(`${label}: a model request has no arrival time`);
    return at;
  });
  const calls = ids.map((id, index) => {
    const { pre, post } = marks.get(id);
    const toolAt = toolRuns[index].at;
    const next = requestAt[index + 1];
    return { preToTool: toolAt - pre, postToNext: next - post, cycle: next - pre };
  });
  return { totalMs, reads: calls.slice(0, reads), write: calls[reads] };
}

const requestTimes = new WeakMap();

const SIDE_LABELS = { gated: 'gated', noop: 'no-op hooks', none: 'no hooks' };

async function cliLevel(novarch, dir, options) {
  const world = await openWorld(novarch, dir);
  const server = await startFakeAnthropic({
    onRequest: (request) => requestTimes.set(request, performance.now()),
  });
  const names = Object.keys(SIDE_LABELS);
  const homes = Object.fromEntries(names.map((name) => [name, path.join(dir, `home-${name}`)]));
  for (const home of Object.values(homes)) await mkdir(home);
  const sides = Object.fromEntries(names.map((name) => [name, { runs: [] }]));
  const total = options.warmup + options.samples;
  try {
    for (let index = 0; index < total; index++) {
      // one run of each side per round, one after the other; the order rotates every round
      const order = names.map((_, position) => names[(position + index) % names.length]);
      for (const name of order) {
        progress(
          `through the CLI: ${index < options.warmup ? 'warm-up' : 'sample'} ${index + 1}/${total} ${name}`,
        );
        const run = await cliRun({
          novarch,
          engine: world.engine,
          store: world.store,
          server,
          home: homes[name],
          mode: name,
          reads: options.cliReads,
          sample: index,
        });
        if (index >= options.warmup) sides[name].runs.push(run);
      }
    }
  } finally {
    await server.close();
    await world.store.close();
  }
  progress('');
  return sides;
}

// ---------------------------------------------------------------- report

const walls = (calls) => calls.map((call) => call.wall);
/** The wall time less the time the thread was runnable but had no CPU: the call's cost on an idle machine. */
const ownTimes = (calls) => calls.map((call) => Math.max(0, call.wall - call.wait));
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Means of wall = on CPU + waiting for a CPU + blocked, over all calls and over the slowest 1%. */
function splitRows(label, calls) {
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

function hookReport(hook, options) {
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
    '  a read = isKilled + recordEvidence; a passed write = isKilled + recordAction + listEvidence + judgeAction + recordVerdict',
  ].join('\n');
}

/** The values of one span of one kind of call ('read' or 'write') over a side's runs. */
function spans(cli, side, kind, field) {
  return cli[side].runs.flatMap((run) =>
    (kind === 'read' ? run.reads : [run.write]).map((call) => call[field]),
  );
}

function cliReport(cli, options) {
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
function cliNoise(cli) {
  const halves = [0, 1].map((parity) =>
    cli.none.runs
      .filter((_, index) => index % 2 === parity)
      .flatMap((run) => run.reads.map((call) => call.cycle)),
  );
  if (!halves[1].length) return Number.NaN;
  return Math.abs(quantile(halves[0], 0.99) - quantile(halves[1], 0.99));
}

function overheadAt(gated, baseline, q) {
  return quantile(gated, q) - quantile(baseline, q);
}

async function main() {
  const options = parseOptions();
  const novarch = await import(options.novarch).catch((error) => {
    throw new BenchError(`cannot import ${options.novarch}: build first (npx tsc -b): ${error.message}`);
  });
  outputPadding = options.outputBytes ? ` ${'x'.repeat(options.outputBytes)}` : '';
  const dir = await mkdtemp(path.join(options.dir, 'gate-overhead-'));
  const loadAtStart = os.loadavg();
  try {
    process.stdout.write(
      `gate-overhead: Novarch hook gate vs the same calls without it; node ${process.version}, ${os.cpus().length} CPUs\n` +
        `novarch: ${path.relative(process.cwd(), options.novarch) || options.novarch}; lookup output ${lookupOutput('C-0').content[0].text.length} characters\n` +
        `store: SQLite (WAL) in ${dir} on ${await fileSystemOf(dir)}\n` +
        `load average at start: ${loadText(loadAtStart)}\n`,
    );
    const out = [''];
    const verdicts = [];
    if (options.compare && !options.skipHook) {
      const before = await import(options.compare).catch((error) => {
        throw new BenchError(`cannot import ${options.compare}: ${error.message}`);
      });
      await mkdir(path.join(dir, 'compare'));
      const compared = await hookComparison(
        [
          { label: 'before (--compare build)', novarch: before, storeOptions: {} },
          { label: 'after, automatic checkpoints', novarch, storeOptions: { checkpoints: 'automatic' } },
          { label: 'after (background checkpoints)', novarch, storeOptions: {} },
        ],
        path.join(dir, 'compare'),
        options,
      );
      out.push(comparisonReport(compared, options), '');
    }
    if (!options.skipHook) {
      await mkdir(path.join(dir, 'hook'));
      const hook = await hookLevel(novarch, path.join(dir, 'hook'), options);
      await new Promise((resolve) => setTimeout(resolve, 50)); // let the gc observer deliver its entries
      out.push(hookReport(hook, options), '');
      const p99 = overheadAt(walls(hook.reads.gated), walls(hook.reads.baseline), 0.99);
      const ownP99 = overheadAt(ownTimes(hook.reads.gated), ownTimes(hook.reads.baseline), 0.99);
      verdicts.push(
        verdict(
          `hook level: read p99 overhead ${fixed(p99, 3)} ms (target ≤ ${TARGET_READ_P99_MS} ms; less CPU wait: ${fixed(ownP99, 3)} ms)`,
          p99 <= TARGET_READ_P99_MS,
        ),
        verdict(
          `hook level: passed write p99 overhead ${fixed(overheadAt(walls(hook.writes.gated), walls(hook.writes.baseline), 0.99), 3)} ms (target ≤ ${TARGET_WRITE_P99_MS} ms; each passed write is one fsync: see "recordVerdict (FULL: fsync)")`,
          overheadAt(walls(hook.writes.gated), walls(hook.writes.baseline), 0.99) <= TARGET_WRITE_P99_MS,
        ),
      );
    }
    if (!options.skipCli) {
      await mkdir(path.join(dir, 'cli'));
      const cli = await cliLevel(novarch, path.join(dir, 'cli'), options);
      out.push(cliReport(cli, options), '');
      const cycles = (side, kind) => spans(cli, side, kind, 'cycle');
      const p99 = overheadAt(cycles('gated', 'read'), cycles('none', 'read'), 0.99);
      const noise = cliNoise(cli);
      verdicts.push(
        `${verdict(
          `through the CLI: read p99 overhead ${fixed(p99, 1)} ms (target ≤ ${TARGET_READ_P99_MS} ms; noise: ${fixed(noise, 1)} ms)`,
          p99 <= TARGET_READ_P99_MS,
        )}${noise >= TARGET_READ_P99_MS ? ' (not resolved: the noise is above the target; the hook level decides)' : ''}`,
        `through the CLI: passed write p99 overhead ${fixed(overheadAt(cycles('gated', 'write'), cycles('none', 'write'), 0.99), 1)} ms (no target; p99 of ${options.samples} writes is their max)`,
      );
    }
    out.push(
      `load average at start: ${loadText(loadAtStart)}; at end: ${loadText(os.loadavg())}`,
      '',
      ...verdicts,
      '',
    );
    process.stdout.write(out.join('\n'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  progress('');
  process.stderr.write(
    `\ngate-overhead: benchmark aborted: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  if (!(error instanceof BenchError) && error instanceof Error && error.stack)
    process.stderr.write(`${error.stack}\n`);
  process.exitCode = 1;
}
