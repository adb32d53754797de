// @ts-check
// gate-overhead: the hook level: the gate's hooks called in process against no-op hooks.
import { statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { hrMs, progress, schedstat } from './measure.mjs';
import {
  BenchError,
  GATE_OPTIONS,
  LOOKUP,
  lookupOutput,
  REFUND,
  REFUND_AMOUNT,
  RULES_FILE,
  refundOutput,
  SCOPE,
} from './options.mjs';

// ---------------------------------------------------------------- hook level

export const HOOK_BASE = {
  session_id: 'bench-sdk-session',
  transcript_path: '/tmp/transcript.jsonl',
  cwd: '/tmp',
};
export const SIGNAL = new AbortController().signal;

/** The PreToolUse and PostToolUse callbacks of a hooks config, as the SDK would call them. */
export function callbacksOf(hooks) {
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
export const isNoOpinion = (output) => Object.keys(output).length === 0;
export const denyReason = (output) =>
  output?.hookSpecificOutput?.permissionDecisionReason ?? JSON.stringify(output);

/**
 * One tool call as the CLI makes it: PreToolUse, the tool when not refused, PostToolUse (with
 * hand-built inputs shaped as the CLI sends them, as test/unit/gate/support/hook-calls.ts does).
 */
export async function toolCall(callbacks, toolName, toolInput, toolUseId, body) {
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
export async function timedCall(label, callbacks, toolName, toolInput, toolUseId, body) {
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
export function baselineHooks() {
  const noop = async () => ({});
  return {
    PreToolUse: [{ hooks: [noop], timeout: 60, onFailure: 'block' }],
    PostToolUse: [{ hooks: [noop], onFailure: 'block' }],
    PostToolUseFailure: [{ hooks: [noop], onFailure: 'block' }],
  };
}

export async function openWorld(novarch, dir, storeOptions = {}) {
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
export function withGate(novarch, engine, fn) {
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

export async function checkEvidence(store, sessionId, customers, label) {
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
export async function hookReads(novarch, world, { count, sessionReads, timed }) {
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
export async function hookWrites(novarch, world, { count, evidence, timed }) {
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
      /** @type {{ gated: any[], baseline: any[] }} */
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
export async function checkPassedWrite(store, sessionId, customer, ranAt, label) {
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
 * What a gated call does, each part timed alone on the same store: the per-read kill check, the
 * evidence insert, and the steps of a passed write: `proposeAction` (its kill check, action
 * insert and evidence list in one transaction), the CEL judge, and `releaseAction` with the pass
 * (verdict, audit link and release committed with synchronous = FULL, i.e. one WAL fsync).
 */
export async function hookParts(novarch, world, { count, evidence }) {
  /** @type {Record<string, number[]>} */
  const parts = {
    'isKilled (getSession, per read)': [],
    recordEvidence: [],
    [`proposeAction (kill check, action, ${evidence} evidence rows)`]: [],
    [`judgeAction (CEL, ${evidence} evidence)`]: [],
    'releaseAction with the pass (FULL: fsync)': [],
  };
  const names = Object.keys(parts);
  const { store, engine, rules } = world;
  const time = async (name, work) => {
    const start = process.hrtime.bigint();
    const result = await work();
    parts[name].push(hrMs(start));
    return result;
  };
  const scratch = await engine.openSession(SCOPE);
  for (let index = 0; index < count; index++) {
    // A fresh session per write, as in the hook-level writes: its evidence, then the write.
    const session = await engine.openSession(SCOPE);
    for (let row = 0; row < evidence; row++) {
      await store.recordEvidence({
        sessionId: session.id,
        toolName: LOOKUP,
        input: { customer_id: row === 0 ? 'P-0' : `P-${row}` },
        output: lookupOutput('P'),
        isError: false,
        startedAt: new Date().toISOString(),
        finishedAt: new Date().toISOString(),
      });
    }
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
    const proposal = await time(names[2], () =>
      store.proposeAction({
        sessionId: session.id,
        actionType: 'issue_refund',
        toolName: REFUND,
        input: { customer_id: 'P-0', amount: REFUND_AMOUNT },
        context: { recordId: 'P-0', summary: 'refund P-0', amount: REFUND_AMOUNT },
        reasoning: 'the customer asked',
      }),
    );
    if (!proposal.open) throw new BenchError('parts: the session was found killed');
    const judged = await time(names[3], () =>
      novarch.judgeAction({ action: proposal.action, evidence: proposal.evidence, session, rules }),
    );
    if (judged.kind !== 'pass')
      throw new BenchError(`parts: the judge said ${judged.kind}: ${judged.citations.rationale}`);
    const release = await time(names[4], () =>
      store.releaseAction({ actionId: proposal.action.id, sessionId: session.id, verdict: judged }),
    );
    if (!release.released) throw new BenchError('parts: the pass was not released');
  }
  return parts;
}

export async function hookLevel(novarch, dir, options) {
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
