import { describe, expect, it } from 'vitest';
import { createE2eAgent } from './support/e2e-agent.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';

// Configurations `validate` used to call valid that fail later (after a paid run, or at start-up):
// each is now reported by validate, with its place and a fix. No model is reached.
const NOWHERE = 'http://127.0.0.1:9';
const LOOKUP = {
  type: 'function',
  name: 'lookup_order',
  description: 'Looks up an order',
  file: 'orders.mjs',
  function: 'lookupOrder',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } } },
};
const REFUND = { ...LOOKUP, name: 'refund_order', function: 'refundOrder' };
const ORDERS = "export const lookupOrder = () => 'x';\nexport const refundOrder = () => 'ok';\n";

function agentWith(config: Record<string, unknown>, files: Record<string, string> = {}) {
  return createE2eAgent(NOWHERE, { config, files: { 'orders.mjs': ORDERS, ...files } });
}

const validate = (agent: ReturnType<typeof createE2eAgent>) =>
  runHolodeckCli(['validate', agent.file], agent.env);

describe('validate catches what used to fail after the run', () => {
  it('a bad regex and matcher objects with unknown keys in expected_tools arguments', async () => {
    const agent = agentWith({
      tools: [LOOKUP],
      test_cases: [
        {
          name: 'matchers',
          input: 'hi',
          expected_tools: [
            { name: 'lookup_order', args: { order_id: { regex: 'A-(\\d+' } } },
            { name: 'lookup_order', args: { order_id: { regex: 'a-1', flags: 'zz' } } },
            { name: 'lookup_order', args: { order_id: { fuzzy: 'a 1', threshold: 9 } } },
          ],
        },
      ],
    });
    const outcome = await validate(agent);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      'test_cases[0].expected_tools[0].args.order_id.regex: invalid regular expression: Invalid regular expression: /A-(\\d+/: Unterminated group',
    );
    expect(outcome.stderr).toContain(
      'test_cases[0].expected_tools[1].args.order_id.flags: regex flags are some of d g i m s u v y',
    );
    expect(outcome.stderr).toContain(
      'test_cases[0].expected_tools[2].args.order_id.threshold: unknown key "threshold" in a {fuzzy} matcher',
    );
  });

  it('a cost metric on a model without a price (ollama)', async () => {
    const agent = createE2eAgent(NOWHERE, {
      config: {
        model: { provider: 'ollama', name: 'llama3.2' },
        test_cases: [{ name: 'cheap', input: 'hi', metrics: [{ type: 'cost', threshold: 0.01 }] }],
      },
    });
    const outcome = await validate(agent);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      "test_cases[0].metrics[0].type: a cost metric needs the run's cost, which is unknown here (ollama runs llama3.2 on your own machine, so it has no per-token price; set pricing: in agent.yaml to count one), so it could never be graded",
    );
  });

  it('a rules file of another team, tool_kinds naming no tool, and a tool missing from it', async () => {
    const agent = agentWith(
      {
        tools: [LOOKUP, REFUND],
        governance: {
          tenant_id: 'acme',
          team_id: 'cs-ops',
          agent_id: 'bot',
          rules_file: 'rules.yaml',
          tool_kinds: { lookup_ordr: 'read', refund_order: 'write' },
          write_specs: { refund_order: { action_type: 'refund_order', record_id: 'order_id' } },
        },
      },
      {
        'rules.yaml':
          'team: billing\naction_types: [refund_order]\nrules:\n  - id: B-1\n    version: 1\n    description: ok\n    applies_to: [refund_order]\n    on_violation: kill\n    condition: "true"\n',
      },
    );
    const outcome = await validate(agent);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      'governance.team_id: team_id is "cs-ops", but rules.yaml holds the rules of team "billing"',
    );
    expect(outcome.stderr).toContain(
      'governance.tool_kinds.lookup_ordr: tool_kinds names "lookup_ordr", which is none of the agent\'s tools\n    hint: did you mean "lookup_order"?',
    );
    expect(outcome.stderr).toContain(
      'governance.tool_kinds: function tool "lookup_order" is missing from tool_kinds, so governance does not know whether it reads or writes',
    );
  });

  it('expected_tools: [Write] while side effects are off: validate warns, test says why', async () => {
    const agent = createE2eAgent(NOWHERE, {
      config: {
        claude: { working_directory: '.', file_system: { write: true } },
        test_cases: [{ name: 'writes', input: 'write a file', expected_tools: ['Write'] }],
      },
    });
    const checked = await validate(agent);
    expect(checked.code).toBe(0);
    expect(checked.stderr).toContain(
      'test case "writes" expects tool "Write", which holodeck test turns off: side effects are off unless --allow-side-effects',
    );
    const run = await runHolodeckCli(['test', agent.file, '--no-save'], agent.env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'test_cases[0].expected_tools[0]: test case "writes" expects tool "Write", which holodeck test turns off: side effects are off unless --allow-side-effects',
    );
    expect(run.stderr).not.toContain('unknown tool');
  });

  it('an MCP command that is not on PATH is a warning', async () => {
    const agent = createE2eAgent(NOWHERE, {
      config: {
        tools: [{ type: 'mcp', name: 'srv', description: 'A server', command: 'no-such-mcp-server-xyz' }],
      },
    });
    const outcome = await validate(agent);
    expect(outcome.code).toBe(0);
    expect(outcome.stderr).toContain(
      `warning ${agent.file}:11  MCP server "srv" (tools[0]): command "no-such-mcp-server-xyz" is not on PATH here, so the server would not start; install it or give its full path`,
    );
  });
});
