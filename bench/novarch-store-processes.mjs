// @ts-check
// How many processes one SQLite store takes: N processes write to one store file at once, each
// opening its sessions and, per write, storing a read's evidence and a write judged and let run
// (`decide(..., { release: true })`), as the gate does, with no pause between calls (the worst
// case: real agents wait seconds for their model between tool calls). Counts what failed under
// lock waits and checks that every recorded action has a verdict.
//
//   npm run build && node bench/novarch-store-processes.mjs [--processes 2,4,8,16,32] [--writes 40]
//
// A measurement, not a test: it prints a table and exits 0 (1 only when the run itself failed).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const here = fileURLToPath(import.meta.url);
const RULES = `team: cs-ops
action_types: [issue_refund]
rules:
  - id: TEAM-1
    version: 1
    description: A refund needs a prior lookup of the same customer.
    applies_to: [issue_refund]
    on_violation: kill
    condition: evidence.exists(e, e.tool == "lookup_customer" && e.input.customer_id == action.context.recordId)
`;

async function child(file, writes) {
  const { NovarchEngine, openSqliteStore, validateRulesSource } = await import(
    '../packages/novarch/dist/index.js'
  );
  let store;
  try {
    store = await openSqliteStore(file);
  } catch (error) {
    process.stderr.write(`open failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.stdout.write(`${JSON.stringify({ openFailures: 1 })}\n`);
    return;
  }
  const { ruleSet } = validateRulesSource(RULES, 'rules.yaml');
  if (!ruleSet) throw new Error('the bench rules do not validate');
  const engine = new NovarchEngine({ store, rules: [ruleSet], holdWindowSeconds: 60 });
  const counts = {
    openFailures: 0,
    sessions: 0,
    sessionFailures: 0,
    evidenceFailures: 0,
    decided: 0,
    decideFailures: 0,
    passed: 0,
  };
  let session;
  try {
    session = await engine.openSession({ tenantId: 'acme', teamId: 'cs-ops', agentId: `bot-${process.pid}` });
    counts.sessions += 1;
  } catch {
    counts.sessionFailures += 1;
  }
  if (session !== undefined) {
    for (let index = 0; index < writes; index++) {
      const customer = `C${index}`;
      const at = new Date().toISOString();
      try {
        await store.recordEvidence({
          sessionId: session.id,
          toolName: 'lookup_customer',
          input: { customer_id: customer },
          output: { ok: true },
          isError: false,
          startedAt: at,
          finishedAt: new Date().toISOString(),
        });
      } catch {
        counts.evidenceFailures += 1;
        continue;
      }
      try {
        const decision = await engine.decide(
          session,
          {
            actionType: 'issue_refund',
            toolName: 'issue_refund',
            input: { customer_id: customer, amount: 10 },
            context: { recordId: customer, summary: 'refund 10 EUR', amount: 10 },
          },
          { release: true },
        );
        counts.decided += 1;
        if (decision.release?.released === true) counts.passed += 1;
      } catch (error) {
        counts.decideFailures += 1;
        // As the gate does: the refusal goes on the judged action.
        const actionId = /** @type {{ actionId?: string }} */ (error)?.actionId;
        await store
          .recordRefusal({
            sessionId: session.id,
            source: 'gate',
            ...(actionId === undefined
              ? {
                  call: {
                    actionType: 'issue_refund',
                    toolName: 'issue_refund',
                    input: {},
                    context: { recordId: customer, summary: 'refused' },
                  },
                }
              : { actionId }),
            citations: {
              ruleIds: [],
              evidenceIds: [],
              rationale: `refused: ${error instanceof Error ? error.message : String(error)}`,
            },
          })
          .catch(() => undefined);
      }
    }
  }
  await store.close();
  process.stdout.write(`${JSON.stringify(counts)}\n`);
}

function runChild(file, writes) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [here, '--child', file, String(writes)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (chunk) => {
      out += chunk;
    });
    proc.on('error', reject);
    proc.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`child exited ${code}`)),
    );
  });
}

async function measure(processes, writes) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'novarch-procs-'));
  const file = path.join(dir, 'store.db');
  try {
    // The file exists before the children open it (their opens race on migrations otherwise too).
    const { openSqliteStore } = await import('../packages/novarch/dist/index.js');
    await (await openSqliteStore(file)).close();
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: processes }, () => runChild(file, writes)));
    const seconds = (Date.now() - started) / 1000;
    /** @type {Record<string, number>} */
    const total = {};
    for (const result of results)
      for (const [key, value] of Object.entries(result)) total[key] = (total[key] ?? 0) + value;
    const db = new Database(file, { readonly: true });
    const row = /** @type {{ n: number }} */ (
      db.prepare('select count(*) as n from actions where id not in (select action_id from verdicts)').get()
    );
    const withoutVerdict = row.n;
    db.close();
    return { processes, writes: processes * writes, seconds, counts: total, withoutVerdict };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--child') return child(args[1], Number(args[2]));
  const option = (name, fallback) => {
    const at = args.indexOf(name);
    return at === -1 ? fallback : args[at + 1];
  };
  const counts = option('--processes', '2,4,8,16,32').split(',').map(Number);
  const writes = Number(option('--writes', '40'));
  console.log(
    `load average ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}, ${os.cpus().length} cores`,
  );
  console.log(
    'processes | writes | s    | open fails | session fails | evidence fails | decide fails | no verdict',
  );
  for (const processes of counts) {
    const r = await measure(processes, writes);
    console.log(
      `${String(processes).padStart(9)} | ${String(r.writes).padStart(6)} | ${r.seconds.toFixed(1).padStart(4)} | ${String(r.counts.openFailures ?? 0).padStart(10)} | ${String(r.counts.sessionFailures).padStart(13)} | ${String(r.counts.evidenceFailures).padStart(14)} | ${String(r.counts.decideFailures).padStart(12)} | ${String(r.withoutVerdict).padStart(10)}`,
    );
  }
  console.log(
    `load average after ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
