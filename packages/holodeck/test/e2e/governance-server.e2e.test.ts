import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reply, toolUse } from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createE2eAgent } from './support/e2e-agent.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';
import { useFakeModel } from './support/use-fake-model.js';

// An agent.yaml whose governance: block names a Novarch server (`server: ${NOVARCH_SERVER}`, the
// key from NOVARCH_API_KEY), run by `holodeck chat -p` through the real SDK and CLI against a real
// `novarch serve` process that judges every write with its own rules and stores every decision.

const NOVARCH_BIN = fileURLToPath(new URL('../../../novarch/bin/novarch.js', import.meta.url));
const fake = useFakeModel();

const ORDERS = `
import { appendFileSync } from 'node:fs';
export const lookupOrder = ({ order_id }) => ({ order_id, customer: 'C-7', status: 'delivered' });
export const refundOrder = ({ order_id, amount }) => {
  appendFileSync(new URL('./refunds.log', import.meta.url), order_id + ' ' + amount + '\\n');
  return 'refunded';
};
`;

const RULES = `team: cs-ops
action_types: [refund_order]
rules:
  - id: TEAM-1
    version: 1
    description: A refund needs a prior lookup of the same order.
    applies_to: [refund_order]
    on_violation: kill
    condition: evidence.exists(e, e.tool == "mcp__holodeck_tools__lookup_order" && e.input.order_id == action.context.recordId)
`;

let server: ChildProcess | undefined;
let serverUrl = '';
let agentKey = '';
let operatorToken = '';

function novarch(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [NOVARCH_BIN, ...args],
      { env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1,
          stdout,
          stderr,
        }),
    );
  });
}

beforeAll(async () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'holodeck-novarch-server-'));
  writeFileSync(path.join(directory, 'rules.yaml'), RULES);
  const config = path.join(directory, 'novarch.yaml');
  writeFileSync(
    config,
    'rules: [rules.yaml]\nserver:\n  store_url: sqlite:./server.db\n  tenants:\n    acme: {}\n',
  );
  const key = await novarch([
    'keys',
    'create',
    '--config',
    config,
    '--tenant',
    'acme',
    '--name',
    'support-bot',
  ]);
  expect(key.code, key.stderr).toBe(0);
  agentKey = key.stdout.split('\n')[0] ?? '';
  const token = await novarch([
    'operators',
    'create',
    '--config',
    config,
    '--name',
    'ana',
    '--grant',
    'acme',
  ]);
  expect(token.code, token.stderr).toBe(0);
  operatorToken = token.stdout.split('\n')[0] ?? '';
  const child = spawn(
    process.execPath,
    [NOVARCH_BIN, 'serve', '--config', config, '--listen', '127.0.0.1:0'],
    {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  server = child;
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const url = /listening on (http:\/\/[0-9.:]+)/.exec(output)?.[1];
    if (url !== undefined) {
      serverUrl = url;
      break;
    }
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`novarch serve did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});
afterAll(() => {
  if (server?.exitCode === null) server.kill('SIGKILL');
});

function serverAgent(env: Record<string, string>) {
  const tool = (name: string, fn: string, properties: Record<string, unknown>) => ({
    type: 'function',
    name,
    description: name,
    file: 'orders.mjs',
    function: fn,
    parameters: { type: 'object', properties, required: Object.keys(properties) },
  });
  return createE2eAgent(fake().url, {
    config: {
      tools: [
        tool('lookup_order', 'lookupOrder', { order_id: { type: 'string' } }),
        tool('refund_order', 'refundOrder', { order_id: { type: 'string' }, amount: { type: 'number' } }),
      ],
      governance: {
        tenant_id: 'acme',
        team_id: 'cs-ops',
        agent_id: 'support-bot',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: an agent.yaml variable reference
        server: '${NOVARCH_SERVER}',
        tool_kinds: { lookup_order: 'read', refund_order: 'write' },
        write_specs: {
          refund_order: { action_type: 'refund_order', record_id: 'order_id', amount: 'amount' },
        },
      },
    },
    files: { 'orders.mjs': ORDERS },
    env,
  });
}

const AuditSchema = z.array(
  z.looseObject({
    session: z.looseObject({ id: z.string(), agentId: z.string() }),
    verdict: z
      .looseObject({
        source: z.string(),
        verdict: z.looseObject({
          kind: z.string(),
          citations: z.looseObject({ ruleIds: z.array(z.string()) }),
        }),
      })
      .optional(),
  }),
);

async function serverAudit(): Promise<z.output<typeof AuditSchema>> {
  const response = await fetch(`${serverUrl}/v1/audit`, {
    headers: { authorization: `Bearer ${operatorToken}` },
  });
  expect(response.status).toBe(200);
  return AuditSchema.parse(await response.json());
}

describe('agent.yaml governance: server: a Novarch server judges the agent', () => {
  it('a write the server’s rules pass runs; the verdict is stored by the server, none locally', async () => {
    fake().script(
      toolUse('mcp__holodeck_tools__lookup_order', { order_id: 'A-1' }, { id: 'l1' }),
      toolUse('mcp__holodeck_tools__refund_order', { order_id: 'A-1', amount: 20 }, { id: 'r1' }),
      reply('Refunded.'),
    );
    const agent = serverAgent({ NOVARCH_SERVER: serverUrl, NOVARCH_API_KEY: agentKey });
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'refund A-1'], agent.env);
    expect(outcome).toMatchObject({ code: 0, stdout: 'Refunded.\n' });
    expect(readFileSync(path.join(agent.directory, 'refunds.log'), 'utf8')).toBe('A-1 20\n');
    expect(existsSync(path.join(agent.directory, 'home', '.novarch'))).toBe(false);
    const audit = await serverAudit();
    expect(audit.at(-1)).toMatchObject({
      session: { agentId: 'support-bot' },
      verdict: { source: 'judge', verdict: { kind: 'pass', citations: { ruleIds: ['TEAM-1'] } } },
    });
  });

  it('a write the server kills ends chat -p with exit 3 and the rule it broke; the refund never runs', async () => {
    fake().script(
      toolUse('mcp__holodeck_tools__refund_order', { order_id: 'A-2', amount: 20 }, { id: 'r1' }),
      reply('I tried.'),
    );
    const agent = serverAgent({ NOVARCH_SERVER: serverUrl, NOVARCH_API_KEY: agentKey });
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'refund A-2'], agent.env);
    expect(outcome.code).toBe(3);
    expect(outcome.stderr).toMatch(
      /^error the agent run failed: Novarch killed session ses_\S+ at action act_\S+: .*\[rules: TEAM-1\]/,
    );
    expect(existsSync(path.join(agent.directory, 'refunds.log'))).toBe(false);
    const audit = await serverAudit();
    expect(audit.at(-1)).toMatchObject({
      verdict: { verdict: { kind: 'kill', citations: { ruleIds: ['TEAM-1'] } } },
    });
  });

  it('holodeck validate names a missing NOVARCH_API_KEY, and never asks the model', async () => {
    const agent = serverAgent({ NOVARCH_SERVER: serverUrl });
    const outcome = await runHolodeckCli(['validate', agent.file], agent.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(
      /^error \S*agent\.yaml:\d+:\d+ {2}governance\.server: the Novarch server needs this agent's key in NOVARCH_API_KEY, which is not set\n/,
    );
    expect(outcome.stderr).toContain(
      "create one where the server's store is with `novarch keys create --tenant acme --name support-bot`, then set NOVARCH_API_KEY in the environment, in .env next to agent.yaml or in ~/.holodeck/.env (never in agent.yaml)",
    );
    const chat = await runHolodeckCli(['chat', agent.file, '-p', 'hi'], agent.env);
    expect(chat.code).toBe(2);
    expect(fake().requests).toHaveLength(0);
  });

  it('holodeck validate refuses rules_file and config_file beside server, and a server that is no URL', async () => {
    const agent = serverAgent({ NOVARCH_SERVER: 'novarch.internal:7311', NOVARCH_API_KEY: agentKey });
    writeFileSync(
      agent.file,
      readFileSync(agent.file, 'utf8').replace(
        '  server:',
        '  rules_file: rules.yaml\n  config_file: novarch.yaml\n  server:',
      ),
    );
    const outcome = await runHolodeckCli(['validate', agent.file], agent.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      'governance.rules_file: rules_file has no effect with server: the server judges with its own rules (its novarch.yaml rules:, or `novarch rules push`); remove rules_file',
    );
    expect(outcome.stderr).toContain(
      "governance.config_file: config_file has no effect with server: the hold window, store and judge are the server's; remove config_file",
    );
    expect(outcome.stderr).toContain(
      'governance.server: expected the http(s) URL of a Novarch server, e.g. http://novarch.internal:7311',
    );
  });
});
