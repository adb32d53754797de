import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { reply, toolUse } from '@holodeck/testkit';
import { openSqliteStore } from 'novarch';
import { describe, expect, it } from 'vitest';
import { createE2eAgent } from './support/e2e-agent.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';
import { useFakeModel } from './support/use-fake-model.js';

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

function governedAgent() {
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
        rules_file: 'rules.yaml',
        config_file: 'novarch.yaml',
        tool_kinds: { lookup_order: 'read', refund_order: 'write' },
        write_specs: {
          refund_order: { action_type: 'refund_order', record_id: 'order_id', amount: 'amount' },
        },
      },
    },
    files: {
      'orders.mjs': ORDERS,
      'rules.yaml': RULES,
      'novarch.yaml': 'hold_window_seconds: 5\nstore:\n  path: novarch.db\n',
    },
  });
}

describe('agent.yaml governance: Novarch gates the agent', () => {
  it('a judged pass lets the refund run, and the audit keeps the verdict', async () => {
    fake().script(
      toolUse('mcp__holodeck_tools__lookup_order', { order_id: 'A-1' }, { id: 'l1' }),
      toolUse('mcp__holodeck_tools__refund_order', { order_id: 'A-1', amount: 20 }, { id: 'r1' }),
      reply('Refunded.'),
    );
    const agent = governedAgent();
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'refund A-1'], agent.env);
    expect(outcome).toMatchObject({ code: 0, stdout: 'Refunded.\n' });
    expect(readFileSync(path.join(agent.directory, 'refunds.log'), 'utf8')).toBe('A-1 20\n');
    const store = await openSqliteStore(path.join(agent.directory, 'novarch.db'));
    const [entry] = await store.audit();
    await store.close();
    expect(entry?.verdict?.verdict.kind).toBe('pass');
    expect(entry?.session).toMatchObject({ tenantId: 'acme', teamId: 'cs-ops', agentId: 'support-bot' });
  });

  it('a killed session ends chat -p with exit 3 and the rule it broke; the refund never runs', async () => {
    fake().script(
      toolUse('mcp__holodeck_tools__refund_order', { order_id: 'A-2', amount: 20 }, { id: 'r1' }),
      reply('I tried.'),
    );
    const agent = governedAgent();
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'refund A-2'], agent.env);
    expect(outcome.code).toBe(3);
    expect(outcome.stderr).toMatch(
      /^error the agent run failed: Novarch killed session ses_\S+ at action act_\S+: .*\[rules: TEAM-1\]/,
    );
    expect(existsSync(path.join(agent.directory, 'refunds.log'))).toBe(false);
  });

  it('a write tool without a write spec is a configuration error (exit 2)', async () => {
    const agent = governedAgent();
    const broken = readFileSync(agent.file, 'utf8').replace(
      / {2}write_specs:[\s\S]*?(?=\n\S|$)/,
      '  write_specs: {}',
    );
    const { writeFileSync } = await import('node:fs');
    writeFileSync(agent.file, broken);
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'hi'], agent.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      'governance.write_specs.refund_order: write tool "refund_order" has no write spec',
    );
  });
});
