import { toolNames, toolUse, toolUses } from '@holodeck/testkit';
import { describe, expect, it } from 'vitest';
import { requestAt } from './support/e2e-agent.js';
import { echoResults } from './support/echo-results.js';
import { invokeAgent } from './support/invoke-agent.js';
import { useFakeModel } from './support/use-fake-model.js';

const fake = useFakeModel();

const ORDERS_MODULE = `
export async function lookupOrder({ order_id }) {
  if (order_id === 'A-0000') throw new Error('order A-0000 does not exist');
  return { order_id, status: 'shipped' };
}
export function cancelOrder() { return 'cancelled'; }
`;

const TS_MODULE = `
export function shout(args: { text: string }): string {
  const loud: string = args.text.toUpperCase();
  return loud + '!';
}
`;

const lookupTool = {
  type: 'function',
  name: 'lookup_order',
  description: 'Look up an order',
  file: 'orders.mjs',
  function: 'lookupOrder',
  parameters: {
    type: 'object',
    properties: { order_id: { type: 'string', pattern: '^A-[0-9]{4}$' } },
    required: ['order_id'],
    additionalProperties: false,
  },
};
const cancelTool = {
  type: 'function',
  name: 'cancel_order',
  description: 'Cancel an order',
  file: 'orders.mjs',
  function: 'cancelOrder',
  parameters: { type: 'object', properties: {} },
};

/** Runs an agent with orders.mjs (and `files`) next to its agent.yaml. */
function run(config: Record<string, unknown>, message: string, files: Record<string, string> = {}) {
  return invokeAgent(fake().url, message, { config, files: { 'orders.mjs': ORDERS_MODULE, ...files } });
}

describe('function tools (in-process MCP server holodeck_tools)', () => {
  it('calls the exported function and pairs call and result by id', async () => {
    fake().script(
      toolUse('mcp__holodeck_tools__lookup_order', { order_id: 'A-1001' }, { id: 'call_1' }),
      echoResults,
    );
    const result = await run({ tools: [lookupTool] }, 'where is A-1001?');

    expect(toolNames(requestAt(fake(), 0))).toEqual(['mcp__holodeck_tools__lookup_order']);
    const tool = fake().requests[0]?.messagesBody?.tools?.[0];
    expect(tool).toMatchObject({ input_schema: { required: ['order_id'], additionalProperties: false } });
    expect(result.tool_calls).toEqual([
      {
        name: 'mcp__holodeck_tools__lookup_order',
        arguments: { order_id: 'A-1001' },
        call_id: 'call_1',
        kind: 'function',
      },
    ]);
    expect(result.tool_results).toEqual([
      { call_id: 'call_1', result: '{"order_id":"A-1001","status":"shipped"}', is_error: false },
    ]);
    expect(result.response).toBe('results: {"order_id":"A-1001","status":"shipped"}');
  });

  it('returns thrown errors and invalid arguments to the model as error results', async () => {
    fake().script(
      toolUses([
        { name: 'mcp__holodeck_tools__lookup_order', input: { order_id: 'A-0000' }, id: 'bad_order' },
        { name: 'mcp__holodeck_tools__lookup_order', input: { order_id: 'nope' }, id: 'bad_args' },
      ]),
      echoResults,
    );
    const result = await run({ tools: [lookupTool] }, 'check both');
    const byId = Object.fromEntries(result.tool_results.map((r) => [r.call_id, r]));
    expect(byId.bad_order).toEqual({
      call_id: 'bad_order',
      result: 'Tool "lookup_order" failed: order A-0000 does not exist',
      is_error: true,
    });
    expect(byId.bad_args?.is_error).toBe(true);
    expect(byId.bad_args?.result).toBe(
      'Invalid arguments for "lookup_order": /order_id must match pattern "^A-[0-9]{4}$"',
    );
  });

  it('loads TypeScript modules', async () => {
    const shout = {
      type: 'function',
      name: 'shout',
      description: 'Shout',
      file: 'shout.ts',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    };
    fake().script(toolUse('mcp__holodeck_tools__shout', { text: 'hi' }), echoResults);
    const result = await run({ tools: [shout] }, 'shout hi', { 'shout.ts': TS_MODULE });
    expect(result.response).toBe('results: HI!');
  });

  it('offers only the tools claude.allowed_tools lists', async () => {
    fake().script(toolUse('mcp__holodeck_tools__cancel_order', {}, { id: 'c1' }), echoResults);
    const result = await run(
      { tools: [lookupTool, cancelTool], claude: { allowed_tools: ['lookup_order'] } },
      'cancel',
    );
    expect(toolNames(requestAt(fake(), 0))).toEqual(['mcp__holodeck_tools__lookup_order']);
    expect(result.tool_results[0]?.is_error).toBe(true);
  });
});
