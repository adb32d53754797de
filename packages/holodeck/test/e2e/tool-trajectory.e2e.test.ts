import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants, type ModelAnswer, type SeenRequest } from './both-backends/backend-variants.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';

// Tool trajectories through `holodeck test` on both backends: the real agent loop calls
// lookup_order, then refund_order, and expected_tool_sequence / called_before / max_tool_calls
// grade the calls it made, in the order it made them.

const SHOP = [
  'export function lookupOrder({ order_id }) { return { order_id, status: "delivered" }; }',
  'export function refundOrder({ order_id }) { return { order_id, refunded: true }; }',
].join('\n');
const tool = (name: string, fn: string) => ({
  type: 'function',
  name,
  description: `${name} of the shop`,
  file: 'shop.mjs',
  function: fn,
  parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
});

/** Looks the order up, then refunds it, then answers. */
function model(request: SeenRequest): ModelAnswer {
  const order = /A-\d+/.exec(request.conversation)?.[0] ?? 'A-0';
  if (request.toolResults.length === 0)
    return { kind: 'tool', name: 'lookup_order', args: { order_id: order } };
  if (request.toolResults.length === 1)
    return { kind: 'tool', name: 'refund_order', args: { order_id: order } };
  return { kind: 'reply', text: `Order ${order} is refunded.` };
}

describe.each(backendVariants())('tool trajectories on the $name backend', (variant) => {
  beforeAll(() => variant.start());
  afterEach(() => variant.discardScript());
  afterAll(() => variant.close());

  it('grades the order and number of the calls the agent made', async () => {
    variant.script(...Array.from({ length: 9 }, () => variant.respond(model)));
    const agent = variant.agent(
      {
        tools: [tool('lookup_order', 'lookupOrder'), tool('refund_order', 'refundOrder')],
        test_cases: [
          {
            name: 'in-order',
            input: 'Refund order A-1',
            expected_tool_sequence: [{ name: 'lookup_order', args: { order_id: 'A-1' } }, 'refund_order'],
            called_before: ['lookup_order', 'refund_order'],
            max_tool_calls: { total: 2, per_tool: { refund_order: 1 } },
          },
          {
            name: 'wrong-order',
            input: 'Refund order A-2',
            expected_tool_sequence: { tools: ['refund_order', 'lookup_order'], mode: 'exact' },
            called_before: ['refund_order', 'lookup_order'],
          },
          {
            name: 'too-many',
            input: 'Refund order A-3',
            max_tool_calls: 1,
          },
        ],
      },
      { 'shop.mjs': SHOP },
    );
    const report = path.join(agent.directory, 'report.json');
    const outcome = await runHolodeckCli(['test', agent.file, '--output', report, '--no-save'], agent.env);
    expect(outcome.code, outcome.stderr).toBe(1);
    const json = JSON.parse(readFileSync(report, 'utf8'));
    const trajectory = (name: string) => {
      const entry = json.cases.find((candidate: { name: string }) => candidate.name === name);
      const metric = entry.metrics.find(
        (candidate: { type: string }) => candidate.type === 'tool-trajectory',
      );
      return [entry.passed, metric.score, metric.reason];
    };
    const ran = '(ran: lookup_order → refund_order)';
    expect(trajectory('in-order')).toEqual([
      true,
      1,
      `met: sequence (in order) lookup_order {"order_id":"A-1"} → refund_order; lookup_order before refund_order; at most 2 tool call(s) in all: 2; at most 1 call(s) of refund_order: 1 ${ran}`,
    ]);
    expect(trajectory('wrong-order')).toEqual([
      false,
      0,
      `not met: sequence (exact) refund_order → lookup_order; refund_order before lookup_order: lookup_order was called first ${ran}`,
    ]);
    expect(trajectory('too-many')).toEqual([false, 0, `not met: at most 1 tool call(s) in all: 2 ${ran}`]);
  });
});
