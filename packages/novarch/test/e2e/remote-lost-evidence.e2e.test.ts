import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NovarchToolGovernor, openSqliteStore } from '../../src/index.js';
import { remoteEngine } from '../../src/remote/remote-engine.js';
import { type NovarchServerProcess, startServerProcess } from './support/novarch-server-process.js';
import { createSecret } from './support/run-novarch-cli.js';

// Issue 24: a read whose evidence the server never got (it was restarting) left the next write
// judged without it on the governor's path (the remote engine, the AI SDK backend). A `novarch
// serve` in its own process goes down while a fraud check runs and comes back on the same port
// before the refund: the refund is refused as "evidence incomplete", never judged as if the
// check had not happened.

const FRAUD = 'check_fraud';
const REFUND = 'issue_refund';
const RULES = `team: cs-ops
action_types: [issue_refund]
rules:
  - id: FRAUD-1
    version: 1
    description: No refund to a customer a fraud check flagged.
    applies_to: [issue_refund]
    on_violation: kill
    condition: "!evidence.exists(e, e.tool == '${FRAUD}' && e.input.customer_id == action.context.recordId)"
`;

let directory = '';
let store: string[] = [];
let agentKey = '';
let server: NovarchServerProcess;
beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'novarch-lost-evidence-'));
  writeFileSync(path.join(directory, 'rules.yaml'), RULES);
  const config = path.join(directory, 'novarch.yaml');
  writeFileSync(
    config,
    'hold_window_seconds: 30\nrules: [rules.yaml]\nserver:\n  store_url: sqlite:./server.db\n  tenants:\n    acme: {}\n',
  );
  store = ['--config', config];
  agentKey = await createSecret(['keys', 'create', ...store, '--tenant', 'acme', '--name', 'cs-bot']);
  server = await startServerProcess(store);
});
afterAll(() => {
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
});

describe('a server restart between a read and a write (remote engine, NovarchToolGovernor)', () => {
  it('the read whose evidence was lost refuses the write after the server is back', async () => {
    const engine = remoteEngine({ url: server.url, apiKey: agentKey });
    const session = {
      engine,
      record: await engine.openSession({ tenantId: 'acme', teamId: 'cs-ops', agentId: 'cs-bot' }),
    };
    const warnings: string[] = [];
    const governor = new NovarchToolGovernor({
      session,
      toolKinds: { [FRAUD]: 'read', [REFUND]: 'write' },
      writeSpecs: {
        [REFUND]: {
          actionType: 'issue_refund',
          contextBuilder: (args) => ({ recordId: String(args.customer_id), summary: 'refund', amount: 50 }),
        },
      },
      warn: (message) => warnings.push(message),
    });
    const listen = new URL(server.url).host;
    const check = await governor.run({ toolName: FRAUD, input: { customer_id: 'C8' } }, async () => {
      // The server crashes while the check runs: its evidence has nowhere to go.
      server.child.kill('SIGKILL');
      await server.exited;
      return 'C8: FLAGGED for fraud';
    });
    expect(check).toMatchObject({ kind: 'ran', output: 'C8: FLAGGED for fraud' });
    server = await startServerProcess(store, {}, listen);
    let refunded = false;
    const write = await governor.run(
      { toolName: REFUND, input: { customer_id: 'C8', amount: 50, reasoning: 'asked' } },
      async () => {
        refunded = true;
      },
    );
    expect(refunded).toBe(false);
    expect(write).toMatchObject({ kind: 'refused' });
    expect(write.kind === 'refused' ? write.reason : '').toMatch(
      /^Novarch: evidence incomplete: the evidence of check_fraud could not be stored: .+; no write of this session is judged on partial evidence$/,
    );
    expect(warnings).toHaveLength(1);
    // The server's store has no evidence of the check, and the refusal in its audit.
    const stored = await openSqliteStore(path.join(directory, 'server.db'));
    try {
      expect(await stored.listEvidence(session.record.id)).toEqual([]);
      const audit = await stored.audit({ sessionId: session.record.id });
      expect(audit.map((entry) => [entry.action.toolName, entry.verdict?.source])).toEqual([
        [REFUND, 'gate'],
      ]);
    } finally {
      await stored.close();
    }
  }, 90_000);
});
