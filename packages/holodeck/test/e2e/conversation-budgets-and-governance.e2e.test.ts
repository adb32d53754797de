import { readFileSync } from 'node:fs';
import path from 'node:path';
import { reply, toolUse } from '@holodeck/testkit';
import { describe, expect, it } from 'vitest';
import { createE2eAgent } from './support/e2e-agent.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';
import { useFakeModel } from './support/use-fake-model.js';

// Multi-turn cases through the real CLI: case-level budgets over the whole conversation, and
// Novarch's verdicts kept (and gradable) in every turn, a kill in the second turn included.
const fake = useFakeModel();

const ORDERS = `
export const lookupOrder = ({ order_id }) => ({ order_id, status: 'delivered' });
export const refundOrder = () => 'refunded';
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
  - id: TEAM-2
    version: 1
    description: Refunds over 500 are held for a human.
    applies_to: [refund_order]
    on_violation: hold
    condition: action.context.amount <= 500
`;
const tool = (name: string, fn: string, properties: Record<string, unknown>) => ({
  type: 'function',
  name,
  description: name,
  file: 'orders.mjs',
  function: fn,
  parameters: { type: 'object', properties, required: Object.keys(properties) },
});
const TOOLS = [
  tool('lookup_order', 'lookupOrder', { order_id: { type: 'string' } }),
  tool('refund_order', 'refundOrder', { order_id: { type: 'string' }, amount: { type: 'number' } }),
];
const LOOKUP = 'mcp__holodeck_tools__lookup_order';
const REFUND = 'mcp__holodeck_tools__refund_order';

function governedAgent(testCases: unknown[]) {
  return createE2eAgent(fake().url, {
    config: {
      tools: TOOLS,
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
      test_cases: testCases,
    },
    files: {
      'orders.mjs': ORDERS,
      'rules.yaml': RULES,
      'novarch.yaml': 'hold_window_seconds: 1\nstore:\n  path: novarch.db\n',
    },
  });
}

async function runTest(agent: ReturnType<typeof createE2eAgent>) {
  const report = path.join(agent.directory, 'report.json');
  const outcome = await runHolodeckCli(['test', agent.file, '--no-save', '--output', report], agent.env);
  return { outcome, json: JSON.parse(readFileSync(report, 'utf8')) };
}

describe('budgets of a multi-turn case', () => {
  it('case-level turns and latency budget the whole conversation; a turn’s own metrics one turn', async () => {
    fake().script(
      toolUse(LOOKUP, { order_id: 'A-1' }, { delayMs: 600 }),
      reply('It was delivered.'),
      reply('Anything else?'),
    );
    const agent = createE2eAgent(fake().url, {
      config: {
        tools: TOOLS,
        test_cases: [
          {
            name: 'two-turns',
            turns: [
              { input: 'Where is A-1?', metrics: [{ type: 'turns', threshold: 2 }] },
              { input: 'Thanks', metrics: [{ type: 'turns', threshold: 1 }] },
            ],
            metrics: [
              { type: 'turns', threshold: 2 },
              { type: 'latency', threshold: 500 },
            ],
          },
        ],
      },
      files: { 'orders.mjs': ORDERS },
    });
    const { outcome, json } = await runTest(agent);
    expect(outcome.code).toBe(1);
    const [attempt] = json.cases[0].attempts;
    // Each turn within its own budget…
    expect(attempt.turns.map((turn: { passed: boolean }) => turn.passed)).toEqual([true, true]);
    // …the conversation (3 model turns, over 600 ms) over the case's.
    const [turnsMetric, latencyMetric] = attempt.metrics;
    expect(turnsMetric).toMatchObject({ type: 'turns', passed: false });
    expect(turnsMetric.reason).toContain('3');
    expect(latencyMetric).toMatchObject({ type: 'latency', passed: false });
    expect(attempt.num_turns).toBe(3);
  });
});

describe('governance in a multi-turn case', () => {
  it('a kill in the second turn passes a case that expects it, with every turn’s verdicts', async () => {
    fake().script(
      toolUse(LOOKUP, { order_id: 'A-1' }),
      toolUse(REFUND, { order_id: 'A-1', amount: 20 }),
      reply('Refunded A-1.'),
      // Second turn: a refund of an order never looked up → killed.
      toolUse(REFUND, { order_id: 'A-2', amount: 20 }),
      reply('Done.'),
    );
    const agent = governedAgent([
      {
        name: 'killed-in-turn-2',
        turns: [{ input: 'Refund A-1' }, { input: 'Refund A-2' }],
        expected_verdicts: [
          { tool: 'refund_order', verdict: 'pass' },
          { tool: 'refund_order', verdict: 'kill' },
        ],
        expect_killed: true,
      },
    ]);
    const { outcome, json } = await runTest(agent);
    const [attempt] = json.cases[0].attempts;
    expect(outcome.code, JSON.stringify(attempt, null, 2)).toBe(0);
    expect(attempt.passed).toBe(true);
    expect(attempt.governance.killed).toBe(true);
    expect(attempt.governance.verdicts.map((verdict: { verdict: string }) => verdict.verdict)).toEqual([
      'pass',
      'kill',
    ]);
    // The kill stopped the run mid-turn: the model's last scripted reply may go unused.
    fake().reset();
  });

  it('a timed-out hold with expected_verdicts but no expect_killed says to add it', async () => {
    fake().script(
      toolUse(LOOKUP, { order_id: 'A-9' }),
      toolUse(REFUND, { order_id: 'A-9', amount: 900 }),
      reply('Held.'),
    );
    const agent = governedAgent([
      {
        name: 'held',
        input: 'Refund A-9 900',
        expected_verdicts: [{ tool: 'refund_order', verdict: 'hold', hold_status: 'timed_out' }],
      },
    ]);
    const { json } = await runTest(agent);
    expect(json.cases[0].error).toContain(
      '(Novarch killed the run; to grade its verdicts, add expect_killed: true to the test case)',
    );
    fake().reset();
  });
});
