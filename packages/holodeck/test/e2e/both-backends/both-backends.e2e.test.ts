import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteStore } from 'novarch';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/backends/contract/index.js';
import { selectBackend } from '../../../src/backends/select-backend.js';
import {
  type GovernedShopOptions,
  governedShopConfig,
  ordersModule,
  rulesFile,
  shopTool,
} from '../support/governance-fixtures.js';
import { runHolodeckCli } from '../support/run-holodeck-cli.js';
import { backendVariants, type ModelAnswer, type SeenRequest } from './backend-variants.js';
import { favourableVerdict } from './favourable-verdict.js';

// The scenarios that prove a backend, run through the real `holodeck` CLI against both: the
// Claude backend (the real Claude Code CLI, fake Anthropic API) and the AI SDK backend (provider
// openai, fake OpenAI-compatible API). A new backend joins by adding a variant.

const SHOP: GovernedShopOptions = {
  lookupResult: "{ order_id, status: 'shipped', carrier: 'DHL' }",
  rules: ['TEAM-1'],
  describeTool: (name) => `${name} of the shop`,
};
const ORDERS = ordersModule(SHOP);
const LOOKUP = shopTool('lookup_order', SHOP);
const REFUND = shopTool('refund_order', SHOP);

const EVERYTHING_SERVER = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);

const EVERYTHING = {
  type: 'mcp',
  name: 'everything',
  description: 'MCP reference server',
  transport: 'stdio',
  command: process.execPath,
  args: [EVERYTHING_SERVER, 'stdio'],
};

const RESPONSE_FORMAT = {
  type: 'object',
  properties: { answer: { type: 'string' } },
  required: ['answer'],
  additionalProperties: false,
};

// Function tools are `mcp__holodeck_tools__<name>` to the rules on both backends.
const RULES = rulesFile(SHOP.rules);
// TEAM-2 too: refunds over 500 wait for an operator.
const HOLD_RULES = rulesFile(['TEAM-1', 'TEAM-2']);
const GOVERNANCE = governedShopConfig(SHOP).governance;

/** The model of the metric-suite scenario: plays the judge, looks orders up, answers from results. */
function shopModel(request: SeenRequest): ModelAnswer {
  if (request.verdictSchema) return { kind: 'verdict', verdict: favourableVerdict(request.verdictSchema) };
  const result = request.toolResults.at(-1);
  if (result)
    return { kind: 'reply', text: `Your order has shipped with DHL (${result.text.length} bytes).` };
  const order = /A-\d{4}/.exec(request.lastUserText)?.[0];
  if (order) return { kind: 'tool', name: 'lookup_order', args: { order_id: order } };
  return { kind: 'reply', text: 'Opened electronics can be returned within 14 days for a full refund.' };
}

describe.each(backendVariants())('the $name backend, through the holodeck CLI', (variant) => {
  beforeAll(() => variant.start());
  afterEach(() => variant.checkAndReset());
  afterAll(() => variant.close());

  it('calls a function tool and answers from its result', async () => {
    variant.script(
      variant.callTool('lookup_order', { order_id: 'A-1001' }),
      variant.reply('It has shipped.'),
    );
    const agent = variant.agent({ tools: [LOOKUP] }, { 'orders.mjs': ORDERS });
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'Where is A-1001?', '--json'], agent.env);
    expect(outcome.code).toBe(0);
    const result = JSON.parse(outcome.stdout);
    expect(result).toMatchObject({ response: 'It has shipped.', is_error: false, num_turns: 2 });
    expect(result.tool_calls).toEqual([
      expect.objectContaining({
        name: expect.stringMatching(/(^|__)lookup_order$/),
        arguments: { order_id: 'A-1001' },
        kind: 'function',
      }),
    ]);
    expect(variant.requests()[1]?.toolResults).toEqual([
      { text: '{"order_id":"A-1001","status":"shipped","carrier":"DHL"}', isError: false },
    ]);
  });

  it('runs a real MCP server from npm over stdio', async () => {
    variant.script(variant.callTool('mcp__everything__echo', { message: 'ping' }), variant.reply('done'));
    const agent = variant.agent({ tools: [EVERYTHING], ...variant.mcpConfig(['mcp__everything__echo']) });
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'echo ping', '--json'], agent.env);
    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout).tool_results).toEqual([
      expect.objectContaining({ result: 'Echo: ping', is_error: false }),
    ]);
  });

  it("resolves an MCP tool named by its short name in expected_tools against the server's list", async () => {
    variant.script(variant.callTool('mcp__everything__echo', { message: 'ping' }), variant.reply('done'));
    const agent = variant.agent({
      tools: [EVERYTHING],
      ...variant.mcpConfig(['mcp__everything__echo']),
      test_cases: [{ name: 'echoes', input: 'echo ping', expected_tools: ['echo'] }],
    });
    const outcome = await runHolodeckCli(['test', agent.file, '--no-save'], agent.env);
    expect(outcome.stdout).toMatch(/^echoes +PASS +tool-calls 1/m);
    expect(outcome.code).toBe(0);
  });

  it('returns valid structured output, and fails (exit 3) without it', async () => {
    variant.script(variant.structured({ answer: 'Paris' }));
    const agent = variant.agent({ response_format: RESPONSE_FORMAT });
    const valid = await runHolodeckCli(['chat', agent.file, '-p', 'Capital of France?', '--json'], agent.env);
    expect(valid.code).toBe(0);
    expect(JSON.parse(valid.stdout)).toMatchObject({
      structured_output: { answer: 'Paris' },
      is_error: false,
    });

    variant.script(...variant.noValidStructuredOutput());
    const invalid = await runHolodeckCli(['chat', agent.file, '-p', 'Capital of France?'], agent.env);
    expect(invalid.code).toBe(3);
    expect(invalid.stderr).toMatch(/structured output/);
  });

  it('stops at max_turns with exit 3', async () => {
    variant.script(variant.callTool('lookup_order', { order_id: 'A-1001' }));
    const agent = variant.agent({ tools: [LOOKUP], max_turns: 1 }, { 'orders.mjs': ORDERS });
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'Where is A-1001?'], agent.env);
    expect(outcome.code).toBe(3);
    expect(outcome.stderr).toContain('max_turns limit reached');
  });

  it('chats on stdin, streams the answer, and resumes the session later', async () => {
    variant.script(variant.reply('Noted, the code word is heron.'), variant.reply('The code word is heron.'));
    const agent = variant.agent();
    const chat = await runHolodeckCli(
      ['chat', agent.file],
      agent.env,
      'Remember the code word heron.\n/exit\n',
    );
    expect(chat.code).toBe(0);
    expect(chat.stdout).toContain('Noted, the code word is heron.');
    const sessionId = /--resume (\S+)\)/.exec(chat.stderr)?.[1];
    expect(sessionId).toBeDefined();

    const resumed = await runHolodeckCli(
      ['chat', agent.file, '--resume', sessionId ?? '', '-p', 'What is the code word?'],
      agent.env,
    );
    expect(resumed).toMatchObject({ code: 0, stdout: 'The code word is heron.\n' });
    expect(variant.requests()[1]?.conversation).toContain('Remember the code word heron.');
    expect(variant.requests()[1]?.conversation).toContain('Noted, the code word is heron.');
  });

  it('reports an API error as a failed run (exit 3)', async () => {
    variant.script(...variant.serverError(500));
    const agent = variant.agent();
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'hi'], agent.env);
    expect(outcome.code).toBe(3);
    expect(outcome.stderr).toMatch(/^error the agent run failed: .*500/m);
  });

  it('stops before any request when the credential is missing (exit 2), naming the variable', async () => {
    const agent = variant.agent();
    const { [variant.keyVariable]: _removed, ...env } = agent.env;
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'hi'], env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(variant.keyVariable);
    expect(variant.requests()).toHaveLength(0);
  });

  it('lets Novarch kill a refund without a prior lookup: exit 3, the rule cited, the refund never ran', async () => {
    variant.script(
      variant.callTool('refund_order', { order_id: 'A-2', amount: 20 }),
      variant.reply('I tried.'),
    );
    const agent = variant.agent(
      { tools: [LOOKUP, REFUND], governance: GOVERNANCE },
      {
        'orders.mjs': ORDERS,
        'rules.yaml': RULES,
        'novarch.yaml': 'hold_window_seconds: 1\nstore:\n  path: novarch.db\n',
      },
    );
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'refund A-2'], agent.env);
    expect(outcome.code).toBe(3);
    expect(outcome.stderr).toMatch(
      /^error the agent run failed: Novarch killed session \S+ at action \S+: TEAM-1 v1 \(kill\)/,
    );
    expect(outcome.stderr).toContain('TEAM-1');
    expect(existsSync(path.join(agent.directory, 'refunds.log'))).toBe(false);
    expect(variant.requests()[1]?.toolResults[0]?.isError).toBe(true);
  });

  it("streams a governed session turn whose finish carries Novarch's verdicts (library)", async () => {
    variant.script(
      variant.callTool('lookup_order', { order_id: 'A-2' }),
      variant.callTool('refund_order', { order_id: 'A-2', amount: 20 }),
      variant.reply('Refunded.'),
    );
    const agent = variant.agent(
      { tools: [LOOKUP, REFUND], governance: GOVERNANCE },
      {
        'orders.mjs': ORDERS,
        'rules.yaml': RULES,
        'novarch.yaml': 'hold_window_seconds: 1\nstore:\n  path: novarch.db\n',
      },
    );
    const backend = selectBackend(await agent.load());
    await backend.initialize();
    try {
      const session = await backend.createSession();
      const events: SessionEvent[] = [];
      for await (const event of session.sendStreaming('refund A-2')) events.push(event);
      await session.close();
      const finish = events.find((event) => event.type === 'finish');
      expect(finish?.type === 'finish' && finish.result.is_error).toBe(false);
      expect(finish?.type === 'finish' && finish.result.tool_calls.map((call) => call.kind)).toEqual([
        'function',
        'function',
      ]);
      expect(finish?.type === 'finish' && finish.result.governance).toMatchObject({
        session_id: expect.any(String),
        killed: false,
        verdicts: [expect.objectContaining({ tool: 'mcp__holodeck_tools__refund_order', verdict: 'pass' })],
      });
    } finally {
      await backend.teardown();
    }
    expect(readFileSync(path.join(agent.directory, 'refunds.log'), 'utf8')).toBe('A-2 20\n');
  });

  it("sends the model's text before a held refund as the hold's rationale", async () => {
    const said = 'The order arrived broken, so I am refunding the full 900.';
    variant.script(
      variant.callTool('lookup_order', { order_id: 'A-3' }),
      variant.callTool('refund_order', { order_id: 'A-3', amount: 900 }, said),
      variant.reply('The refund is waiting for approval.'),
    );
    const agent = variant.agent(
      { tools: [LOOKUP, REFUND], governance: GOVERNANCE },
      {
        'orders.mjs': ORDERS,
        'rules.yaml': HOLD_RULES,
        'novarch.yaml': 'hold_window_seconds: 1\nstore:\n  path: novarch.db\n',
      },
    );
    // Nobody decides: the hold times out and the session stops (exit 3); the action is stored.
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'refund A-3'], agent.env);
    expect(outcome.code).toBe(3);
    expect(outcome.stderr).toContain('no operator decided the hold in time');
    const store = await openSqliteStore(path.join(agent.directory, 'novarch.db'));
    const entries = await store.audit();
    await store.close();
    const refund = entries.find((entry) => entry.action.actionType === 'refund_order');
    expect(refund?.verdict?.verdict.kind).toBe('hold');
    expect(refund?.action.reasoning).toBe(said);
    expect(existsSync(path.join(agent.directory, 'refunds.log'))).toBe(false);
  });

  it('runs a test suite with every metric family and writes the report', async () => {
    const cases = 3;
    variant.script(...Array.from({ length: 40 }, () => variant.respond(shopModel)));
    const agent = variant.agent(
      {
        tools: [LOOKUP],
        evaluations: { metrics: [{ type: 'turns', threshold: 5 }] },
        test_cases: [
          {
            name: 'shipped-order',
            input: 'Where is my order A-1001?',
            ground_truth: 'Your order has shipped with DHL.',
            expected_tools: [{ name: 'lookup_order', args: { order_id: 'A-1001' } }],
            metrics: [
              { type: 'contains', value: 'shipped' },
              { type: 'rouge', variant: 'rougeL', threshold: 0.3 },
              {
                type: 'g-eval',
                name: 'helpful',
                criteria: 'The answer says where the order is.',
                threshold: 0.5,
              },
              { type: 'code', file: 'graders.mjs', function: 'mentionsCarrier' },
              { type: 'latency', threshold: 120_000 },
            ],
          },
          {
            name: 'returns-policy',
            input: 'Can I return an opened charger?',
            context: ['Opened electronics can be returned within 14 days for a full refund.'],
            forbidden_tools: ['lookup_order'],
            metrics: [{ type: 'faithfulness' }, { type: 'answer_relevancy' }],
          },
          { name: 'greeting', input: 'Hello!', forbidden_tools: ['lookup_order'] },
        ],
      },
      {
        'orders.mjs': ORDERS,
        'graders.mjs':
          'export const mentionsCarrier = ({ response }) => ({ score: response.includes("DHL") ? 1 : 0 });',
      },
    );
    const report = path.join(mkdtempSync(path.join(tmpdir(), 'both-backends-')), 'report.json');
    const outcome = await runHolodeckCli(
      ['test', agent.file, '--concurrency', '1', '--no-save', '--output', report],
      agent.env,
    );
    expect(outcome.stderr).not.toMatch(/error/i);
    expect(outcome.code).toBe(0);
    const json = JSON.parse(readFileSync(report, 'utf8'));
    expect(json.agent.provider).toBe(variant.name === 'claude' ? 'anthropic' : 'openai');
    expect(json.summary).toMatchObject({ total: cases, passed: cases, failed: 0, errored: 0 });
    const types = json.cases.flatMap((testCase: { attempts: { metrics: { type: string }[] }[] }) =>
      testCase.attempts.flatMap((attempt) => attempt.metrics.map((metric) => metric.type)),
    );
    for (const type of [
      'contains',
      'rouge',
      'g-eval',
      'code',
      'latency',
      'turns',
      'faithfulness',
      'tool-calls',
    ])
      expect(types).toContain(type);
    // The dynamic model's steps are generous on purpose: the judge's number of calls is not pinned here.
    variant.discardScript();
  });
});
