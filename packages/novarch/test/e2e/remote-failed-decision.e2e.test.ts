import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NovarchToolGovernor, openSqliteStore } from '../../src/index.js';
import { remoteEngine } from '../../src/remote/remote-engine.js';
import { type NovarchServerProcess, startServerProcess } from './support/novarch-server-process.js';
import { createSecret } from './support/run-novarch-cli.js';

// Issue 24 (A5): a decision that fails on the server after its action was recorded answered 503
// without the action's id, so the remote client recorded its refusal as a second, new action.
// The 503 now names the judged action and whether the server stored its refusal: a failed
// decision leaves exactly one action, refused once. The faults are real: SQLite triggers in the
// store of a `novarch serve` in its own process.

const REFUND = 'issue_refund';
const RULES = `team: cs-ops
action_types: [issue_refund]
rules:
  - id: SMALL-1
    version: 1
    description: Refunds under 1000 pass.
    applies_to: [issue_refund]
    on_violation: kill
    condition: "action.context.amount < 1000"
`;

let directory = '';
let database = '';
let agentKey = '';
let server: NovarchServerProcess;
beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'novarch-failed-decision-'));
  database = path.join(directory, 'server.db');
  writeFileSync(path.join(directory, 'rules.yaml'), RULES);
  const config = path.join(directory, 'novarch.yaml');
  writeFileSync(
    config,
    'hold_window_seconds: 30\nrules: [rules.yaml]\nserver:\n  store_url: sqlite:./server.db\n  tenants:\n    acme: {}\n',
  );
  const store = ['--config', config];
  agentKey = await createSecret(['keys', 'create', ...store, '--tenant', 'acme', '--name', 'cs-bot']);
  server = await startServerProcess(store);
});
afterEach(() => {
  const db = new Database(database);
  try {
    db.exec('DROP TRIGGER IF EXISTS fail_release; DROP TRIGGER IF EXISTS fail_server_refusal;');
  } finally {
    db.close();
  }
});
afterAll(() => {
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
});

function inject(sql: string): void {
  const db = new Database(database);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

/** A governed refund through the server; its audit afterwards, as the server's store has it. */
async function refundThroughServer() {
  const engine = remoteEngine({ url: server.url, apiKey: agentKey, retries: 0 });
  const record = await engine.openSession({ tenantId: 'acme', teamId: 'cs-ops', agentId: 'cs-bot' });
  const governor = new NovarchToolGovernor({
    session: { engine, record },
    toolKinds: { [REFUND]: 'write' },
    writeSpecs: {
      [REFUND]: {
        actionType: 'issue_refund',
        contextBuilder: (args) => ({ recordId: String(args.customer_id), summary: 'refund', amount: 50 }),
      },
    },
  });
  let refunded = false;
  const outcome = await governor.run(
    { toolName: REFUND, input: { customer_id: 'C1', amount: 50, reasoning: 'asked' } },
    async () => {
      refunded = true;
    },
  );
  const stored = await openSqliteStore(database);
  try {
    const audit = await stored.audit({ sessionId: record.id });
    return {
      outcome,
      refunded,
      audit: audit.map((entry) => ({
        tool: entry.action.toolName,
        released: entry.action.releasedAt !== undefined,
        verdicts: entry.verdicts.map((verdict) => [
          verdict.source,
          verdict.verdict.kind,
          verdict.verdict.citations.rationale,
        ]),
      })),
    };
  } finally {
    await stored.close();
  }
}

describe('a decision that fails on the server (remote engine)', () => {
  it('leaves one action, refused once by the server, when the release cannot be stored', async () => {
    inject(
      "CREATE TRIGGER fail_release BEFORE UPDATE OF released_at ON actions BEGIN SELECT RAISE(ABORT, 'injected release failure'); END;",
    );
    const { outcome, refunded, audit } = await refundThroughServer();
    expect(refunded).toBe(false);
    expect(outcome).toMatchObject({ kind: 'refused' });
    expect(outcome.kind === 'refused' ? outcome.reason : '').toMatch(
      /^Novarch: the gate failed \(the Novarch server at http:\/\/127\.0\.0\.1:\d+ refused POST \/v1\/sessions\/ses_[\w-]+\/actions: 503 the store failed: .*injected release failure.*\); refused to be safe$/,
    );
    expect(audit).toEqual([
      {
        tool: REFUND,
        released: false,
        verdicts: [
          [
            'gate',
            'kill',
            expect.stringMatching(
              /^the server could not decide this write \(.*injected release failure.*\); it did not run$/,
            ),
          ],
        ],
      },
    ]);
  }, 60_000);

  it("records the client's refusal on the judged action when the server could not store its own", async () => {
    inject(
      "CREATE TRIGGER fail_release BEFORE UPDATE OF released_at ON actions BEGIN SELECT RAISE(ABORT, 'injected release failure'); END;" +
        "CREATE TRIGGER fail_server_refusal BEFORE INSERT ON verdicts WHEN NEW.citations_json LIKE '%could not decide%' BEGIN SELECT RAISE(ABORT, 'injected refusal failure'); END;",
    );
    const { outcome, refunded, audit } = await refundThroughServer();
    expect(refunded).toBe(false);
    expect(outcome).toMatchObject({ kind: 'refused' });
    expect(audit).toEqual([
      {
        tool: REFUND,
        released: false,
        verdicts: [
          [
            'gate',
            'kill',
            expect.stringMatching(
              /^the gate failed \(the Novarch server at .+ refused POST .+: 503 the store failed: .*injected release failure\); refused to be safe$/,
            ),
          ],
        ],
      },
    ]);
  }, 60_000);
});
