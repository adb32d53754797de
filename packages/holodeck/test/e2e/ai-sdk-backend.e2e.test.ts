import { spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import {
  chatJson,
  chatLastUserText,
  chatMaxTokens,
  chatMessages,
  chatReply,
  chatRespond,
  chatResponseFormat,
  chatSystemText,
  chatTemperature,
  chatToolCall,
  chatToolNames,
  chatToolResults,
  type FakeOpenAIServer,
  type OpenAIRecordedRequest,
  openaiError,
  startFakeOpenAI,
} from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AiSdkBackend } from '../../src/backends/ai-sdk/ai-sdk-backend.js';
import type { ExecutionResult, SessionEvent } from '../../src/backends/contract/index.js';
import { loadAgentConfig } from '../../src/config/index.js';
import { AgentSessionError, CredentialError } from '../../src/errors.js';
import { createE2eAgent, type E2eAgent, type E2eAgentOptions } from './support/e2e-agent.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';

/** The key the agents send; the fake server records the header it arrives in. */
const OPENAI_KEY = 'sk-openai-e2e-key-0001';
const AZURE_KEY = 'azure-e2e-key-0002';

let fake: FakeOpenAIServer;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterEach(() => {
  try {
    fake.assertComplete();
  } finally {
    fake.reset();
  }
});
afterAll(() => fake.close());

function request(index: number): OpenAIRecordedRequest {
  const recorded = fake.requests[index];
  if (!recorded)
    throw new Error(`the fake model received ${fake.requests.length} request(s), not #${index + 1}`);
  return recorded;
}

/** An agent on provider openai pointed at the fake server, with OPENAI_API_KEY set. */
function openaiAgent(options: E2eAgentOptions = {}): E2eAgent {
  return createE2eAgent(fake.url, {
    ...options,
    config: {
      model: { provider: 'openai', name: 'gpt-4o', endpoint: fake.baseUrl },
      ...options.config,
    },
    env: { OPENAI_API_KEY: OPENAI_KEY, ...options.env },
  });
}

async function started(agent: E2eAgent): Promise<AiSdkBackend> {
  const backend = new AiSdkBackend(await agent.load());
  await backend.initialize();
  return backend;
}

/**
 * An openai agent with lookup_order (a read) and refund_order (a write) governed by Novarch: a
 * refund needs a prior lookup (TEAM-1, kill) and one over 500 is held for an operator (TEAM-2).
 */
function governedOpenaiAgent(holdWindowSeconds = 1): E2eAgent {
  const tool = (name: string, fn: string, properties: Record<string, unknown>) => ({
    type: 'function',
    name,
    description: name,
    file: 'orders.mjs',
    function: fn,
    parameters: { type: 'object', properties, required: Object.keys(properties) },
  });
  return openaiAgent({
    config: {
      tools: [
        tool('lookup_order', 'lookupOrder', { order_id: { type: 'string' } }),
        tool('refund_order', 'refundOrder', { order_id: { type: 'string' }, amount: { type: 'number' } }),
      ],
      governance: {
        tenant_id: 'acme',
        team_id: 'cs-ops',
        agent_id: 'bot',
        rules_file: 'rules.yaml',
        config_file: 'novarch.yaml',
        tool_kinds: { lookup_order: 'read', refund_order: 'write' },
        write_specs: {
          refund_order: { action_type: 'refund_order', record_id: 'order_id', amount: 'amount' },
        },
      },
    },
    files: {
      'orders.mjs': [
        "import { appendFileSync } from 'node:fs';",
        "export const lookupOrder = ({ order_id }) => ({ order_id, status: 'delivered' });",
        "export const refundOrder = ({ order_id }) => { appendFileSync(new URL('./refunds.log', import.meta.url), order_id); return 'refunded'; };",
      ].join('\n'),
      'rules.yaml': [
        'team: cs-ops',
        'action_types: [refund_order]',
        'rules:',
        '  - id: TEAM-1',
        '    version: 1',
        '    description: A refund needs a prior lookup of the same order.',
        '    applies_to: [refund_order]',
        '    on_violation: kill',
        '    condition: evidence.exists(e, e.tool == "mcp__holodeck_tools__lookup_order" && e.input.order_id == action.context.recordId)',
        '  - id: TEAM-2',
        '    version: 1',
        '    description: Refunds over 500 are held for a human.',
        '    applies_to: [refund_order]',
        '    on_violation: hold',
        '    condition: action.context.amount <= 500',
      ].join('\n'),
      'novarch.yaml': `hold_window_seconds: ${holdWindowSeconds}\nstore:\n  path: novarch.db\n`,
    },
  });
}

/** Initializes a backend for `agent`, runs one invokeOnce, and always tears it down. */
async function invoke(agent: E2eAgent, message: string): Promise<ExecutionResult> {
  const backend = await started(agent);
  try {
    return await backend.invokeOnce(message);
  } finally {
    await backend.teardown();
  }
}

async function collect(events: AsyncIterable<SessionEvent>): Promise<SessionEvent[]> {
  const collected: SessionEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

/** A final reply that echoes the tool results sent back, so the test sees the round trip. */
const echoResults = chatRespond((sent) =>
  chatReply(
    `results: ${chatToolResults(sent)
      .map((result) => `${result.toolCallId}=${result.text}`)
      .join(' | ')}`,
  ),
);

const ORDERS_MODULE = `
export function lookupOrder({ order_id }) {
  return { order_id, status: 'shipped' };
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
  },
};

const everything = {
  type: 'mcp',
  name: 'everything',
  description: 'MCP reference server',
  transport: 'stdio',
  command: process.execPath,
  args: [
    createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js'),
    'stdio',
  ],
};

describe('AI SDK backend: providers over Chat Completions', () => {
  it('openai: OPENAI_BASE_URL from the agent env, bearer key, organization, model settings', async () => {
    fake.script(chatReply('Hello from the fake model.'));
    const agent = createE2eAgent(fake.url, {
      config: {
        model: {
          provider: 'openai',
          name: 'gpt-4o',
          temperature: 0.3,
          max_tokens: 256,
          organization: 'org-e2e',
        },
        instructions: { inline: 'You are the e2e agent.' },
      },
      env: { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: fake.baseUrl },
    });
    const result = await invoke(agent, 'Say hello');

    expect(result).toMatchObject({
      response: 'Hello from the fake model.',
      is_error: false,
      num_turns: 1,
      tool_calls: [],
      tool_results: [],
    });
    // gpt-4o is in the price table: the cost is the reported tokens at its list price.
    expect(result.cost_usd).toBeCloseTo(
      (result.token_usage.prompt_tokens * 2.5 + result.token_usage.completion_tokens * 10) / 1e6,
      10,
    );
    expect(result.token_usage.prompt_tokens).toBeGreaterThan(0);
    expect(result.token_usage.total_tokens).toBe(
      result.token_usage.prompt_tokens + result.token_usage.completion_tokens,
    );
    const sent = request(0);
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(sent.headers['openai-organization']).toBe('org-e2e');
    expect(sent.chatBody?.model).toBe('gpt-4o');
    expect(chatTemperature(sent)).toBe(0.3);
    expect(chatMaxTokens(sent)).toEqual({ field: 'max_tokens', value: 256 });
    expect(chatSystemText(sent)).toBe('You are the e2e agent.');
    expect(chatLastUserText(sent)).toBe('Say hello');
    expect(chatToolNames(sent)).toEqual([]);
  });

  it('azure_openai: deployment URL with api-version and the api-key header', async () => {
    fake.script(chatReply('Hello from Azure.'));
    const agent = createE2eAgent(fake.url, {
      config: {
        model: {
          provider: 'azure_openai',
          name: 'gpt-4o',
          endpoint: fake.url,
          deployment: 'prod-gpt4o',
          api_version: '2024-10-21',
          temperature: 0,
          max_tokens: 64,
        },
      },
      env: { AZURE_OPENAI_API_KEY: AZURE_KEY, OPENAI_API_KEY: 'not-this-one' },
    });
    const result = await invoke(agent, 'Say hello');

    expect(result).toMatchObject({ response: 'Hello from Azure.', is_error: false });
    const sent = request(0);
    expect(sent.path).toBe('/openai/deployments/prod-gpt4o/chat/completions');
    expect(sent.apiVersion).toBe('2024-10-21');
    expect(sent.headers['api-key']).toBe(AZURE_KEY);
    expect(sent.headers.authorization).toBeUndefined();
    expect(chatTemperature(sent)).toBe(0);
    expect(chatMaxTokens(sent)).toEqual({ field: 'max_tokens', value: 64 });
  });

  it('ollama: the endpoint plus /v1, no key, model settings', async () => {
    fake.script(chatReply('Hello from Ollama.'));
    const agent = createE2eAgent(fake.url, {
      config: {
        model: { provider: 'ollama', name: 'llama3.2', endpoint: fake.url, temperature: 0.7, max_tokens: 32 },
      },
    });
    const result = await invoke(agent, 'Say hello');

    expect(result).toMatchObject({ response: 'Hello from Ollama.', is_error: false });
    expect(result.token_usage.prompt_tokens).toBeGreaterThan(0);
    const sent = request(0);
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.chatBody?.model).toBe('llama3.2');
    expect(chatTemperature(sent)).toBe(0.7);
    expect(chatMaxTokens(sent)).toEqual({ field: 'max_tokens', value: 32 });
  });
});

describe('AI SDK backend: provider warnings', () => {
  it('reports a setting the model does not support as a backend warning, not on the console', async () => {
    const info = vi.spyOn(console, 'info');
    const warn = vi.spyOn(console, 'warn');
    try {
      fake.script(chatReply('Thought about it.'));
      const agent = openaiAgent({
        config: { model: { provider: 'openai', name: 'o3-mini', endpoint: fake.baseUrl, temperature: 0.5 } },
      });
      const backend = await started(agent);
      const result = await backend.invokeOnce('hi');
      await backend.teardown();

      expect(result.is_error).toBe(false);
      expect(chatTemperature(request(0))).toBeUndefined();
      expect(backend.warnings).toEqual([
        {
          code: 'model-setting-unsupported',
          message:
            'model o3-mini does not support temperature, so it is ignored: temperature is not supported for reasoning models',
        },
      ]);
      expect(info).not.toHaveBeenCalled();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      info.mockRestore();
      warn.mockRestore();
    }
  });
});

describe('AI SDK backend: tools', () => {
  it('runs a function tool and sends its result back paired with the call id', async () => {
    fake.script(chatToolCall('lookup_order', { order_id: 'A-1001' }, { id: 'call_1' }), echoResults);
    const agent = openaiAgent({ config: { tools: [lookupTool] }, files: { 'orders.mjs': ORDERS_MODULE } });
    const result = await invoke(agent, 'Where is A-1001?');

    expect(chatToolNames(request(0))).toEqual(['lookup_order']);
    expect(chatToolResults(request(1))).toEqual([
      { toolCallId: 'call_1', toolName: 'lookup_order', text: '{"order_id":"A-1001","status":"shipped"}' },
    ]);
    expect(result).toMatchObject({
      is_error: false,
      num_turns: 2,
      response: 'results: call_1={"order_id":"A-1001","status":"shipped"}',
      tool_calls: [{ name: 'lookup_order', arguments: { order_id: 'A-1001' }, call_id: 'call_1' }],
      tool_results: [
        { call_id: 'call_1', result: '{"order_id":"A-1001","status":"shipped"}', is_error: false },
      ],
    });
  });

  it('answers invalid arguments with an error result the model can read', async () => {
    fake.script(chatToolCall('lookup_order', { order_id: 'nope' }, { id: 'call_bad' }), echoResults);
    const agent = openaiAgent({ config: { tools: [lookupTool] }, files: { 'orders.mjs': ORDERS_MODULE } });
    const result = await invoke(agent, 'Where is my order?');

    const problem = 'Invalid arguments for "lookup_order": /order_id must match pattern "^A-[0-9]{4}$"';
    expect(chatToolResults(request(1))[0]?.text).toBe(problem);
    expect(result.tool_results).toEqual([{ call_id: 'call_bad', result: problem, is_error: true }]);
    expect(result.is_error).toBe(false);
  });

  it('runs a real MCP server from npm over stdio, as mcp__<server>__<tool>', async () => {
    fake.script(
      chatToolCall('mcp__everything__echo', { message: 'ping from e2e' }, { id: 'e1' }),
      echoResults,
    );
    const result = await invoke(openaiAgent({ config: { tools: [everything] } }), 'echo');

    expect(chatToolNames(request(0))).toContain('mcp__everything__echo');
    expect(result.tool_calls).toEqual([
      { name: 'mcp__everything__echo', arguments: { message: 'ping from e2e' }, call_id: 'e1' },
    ]);
    expect(result.tool_results).toEqual([{ call_id: 'e1', result: 'Echo: ping from e2e', is_error: false }]);
    expect(result.response).toBe('results: e1=Echo: ping from e2e');
  });

  it.each([
    { transport: 'http', mode: 'streamableHttp', path: '/mcp', ready: 'listening' },
    { transport: 'sse', mode: 'sse', path: '/sse', ready: 'running' },
  ])('reaches an MCP server over $transport', async ({ transport, mode, path: urlPath, ready }) => {
    const port = await freePort();
    const server = spawn(process.execPath, [everything.args[0] ?? '', mode], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        server.stderr.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes(ready)) resolve();
        });
        server.on('exit', () => reject(new Error(`MCP ${mode} server exited`)));
      });
      const remote = {
        type: 'mcp',
        name: 'remote',
        description: 'MCP reference server over the network',
        transport,
        url: `http://127.0.0.1:${port}${urlPath}`,
        headers: { 'x-team': 'e2e' },
      };
      fake.script(
        chatToolCall('mcp__remote__echo', { message: `over ${transport}` }, { id: 'r1' }),
        echoResults,
      );
      const result = await invoke(openaiAgent({ config: { tools: [remote] } }), 'echo');
      expect(result.tool_results).toEqual([
        { call_id: 'r1', result: `Echo: over ${transport}`, is_error: false },
      ]);
    } finally {
      server.kill();
    }
  });

  it('gives a stdio MCP server its configured env and none of the model keys', async () => {
    fake.script(chatToolCall('mcp__everything__get-env', {}, { id: 'env1' }), echoResults);
    const withEnv = { ...everything, env: { GREETING: 'hello-from-agent-yaml' } };
    const result = await invoke(openaiAgent({ config: { tools: [withEnv] } }), 'env?');

    const environment = result.tool_results[0]?.result ?? '';
    expect(environment).toContain('hello-from-agent-yaml');
    expect(environment).not.toContain(OPENAI_KEY);
  });

  it('fails initialize, naming the server, when an MCP server does not start', async () => {
    const broken = { ...everything, name: 'broken', command: '/nonexistent/mcp-server', args: [] };
    const backend = new AiSdkBackend(await openaiAgent({ config: { tools: [broken] } }).load());
    const attempt = backend.initialize();
    await expect(attempt).rejects.toThrow(AgentSessionError);
    await expect(attempt).rejects.toThrow(
      'MCP server "broken" (tools[0], command /nonexistent/mcp-server) did not start: spawn /nonexistent/mcp-server ENOENT\n  check its command/url and env in agent.yaml',
    );
    await backend.teardown();
  });
});

describe('AI SDK backend: structured output and limits', () => {
  const responseFormat = {
    type: 'object',
    properties: { answer: { type: 'string' } },
    required: ['answer'],
  };

  it('sends response_format as a json_schema and returns the validated object', async () => {
    fake.script(chatJson({ answer: '42' }));
    const result = await invoke(openaiAgent({ config: { response_format: responseFormat } }), 'The answer?');

    expect(chatResponseFormat(request(0))).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema: responseFormat, strict: false },
    });
    expect(result).toMatchObject({ is_error: false, structured_output: { answer: '42' } });
  });

  it('an answer that does not match response_format is a failed run saying what is wrong', async () => {
    fake.script(chatJson({ answer: 42 }));
    const result = await invoke(openaiAgent({ config: { response_format: responseFormat } }), 'The answer?');

    expect(result).toMatchObject({
      is_error: true,
      error_reason: 'structured output does not match response_format: /answer must be string',
      response: '{"answer":42}',
    });
    expect(result.structured_output).toBeUndefined();
  });

  it('stops at max_turns when the model still wants tools', async () => {
    fake.script(
      chatToolCall('lookup_order', { order_id: 'A-0001' }, { id: 'm1' }),
      chatToolCall('lookup_order', { order_id: 'A-0002' }, { id: 'm2' }),
    );
    const agent = openaiAgent({
      config: { tools: [lookupTool], max_turns: 2 },
      files: { 'orders.mjs': ORDERS_MODULE },
    });
    const result = await invoke(agent, 'Look everything up');

    expect(fake.requests).toHaveLength(2);
    expect(result).toMatchObject({ is_error: true, error_reason: 'max_turns limit reached', num_turns: 2 });
    expect(result.tool_calls.map((call) => call.call_id)).toEqual(['m1', 'm2']);
  });
});

describe('AI SDK backend: sessions', () => {
  it('streams two turns with history, then resumes the saved session in a new backend', async () => {
    fake.script(
      chatReply('Hello Ada, nice to meet you.', { chunkDelayMs: 1 }),
      chatReply('Your name is Ada.'),
      chatReply('You told me your name is Ada.'),
    );
    const agent = openaiAgent({ config: { tools: [lookupTool] }, files: { 'orders.mjs': ORDERS_MODULE } });
    const first = await started(agent);
    const session = await first.createSession();
    expect(session.sessionId).toBeUndefined();

    const events = await collect(session.sendStreaming('My name is Ada.'));
    expect(events[0]).toEqual({
      type: 'session-start',
      sessionId: session.sessionId,
      model: 'gpt-4o',
      tools: ['lookup_order'],
      warnings: [],
    });
    expect(events.at(-1)?.type).toBe('finish');
    const deltas = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Hello Ada, nice to meet you.');
    const sessionId = session.sessionId ?? '';
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

    const second = await collect(session.sendStreaming('What is my name?'));
    expect(second.map((event) => event.type)).not.toContain('session-start');
    expect(second.at(-1)).toMatchObject({
      type: 'finish',
      result: { response: 'Your name is Ada.', session_id: sessionId },
    });
    expect(chatMessages(request(1)).map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
    ]);
    await first.teardown();

    const file = path.join(agent.directory, '.holodeck', 'sessions', `${sessionId}.json`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const other = await started(agent);
    const resumed = await other.createSession({ resume: sessionId });
    expect(resumed.sessionId).toBe(sessionId);
    const result = await resumed.send('Do you remember me?');
    await other.teardown();
    expect(result.response).toBe('You told me your name is Ada.');
    expect(chatMessages(request(2)).map((message) => message.content)).toEqual([
      'You are the e2e test agent. Answer briefly.',
      'My name is Ada.',
      'Hello Ada, nice to meet you.',
      'What is my name?',
      'Your name is Ada.',
      'Do you remember me?',
    ]);
  });

  it('streams tool calls and results paired by id, and reasoning as thinking deltas', async () => {
    fake.script(
      chatToolCall('lookup_order', { order_id: 'A-1001' }, { id: 'call_s1' }),
      chatReply('It shipped.', { reasoning: 'The tool said shipped.' }),
    );
    const agent = createE2eAgent(fake.url, {
      config: { model: { provider: 'ollama', name: 'qwen3', endpoint: fake.url }, tools: [lookupTool] },
      files: { 'orders.mjs': ORDERS_MODULE },
    });
    const backend = await started(agent);
    const session = await backend.createSession();
    const events = await collect(session.sendStreaming('Where is A-1001?'));
    await backend.teardown();

    const kinds = events.map((event) => event.type).filter((type, index, all) => type !== all[index - 1]);
    expect(kinds).toEqual([
      'session-start',
      'tool-call',
      'tool-result',
      'thinking-delta',
      'text-delta',
      'finish',
    ]);
    expect(events.filter((event) => event.type === 'tool-call' || event.type === 'tool-result')).toEqual([
      { type: 'tool-call', callId: 'call_s1', name: 'lookup_order', arguments: { order_id: 'A-1001' } },
      {
        type: 'tool-result',
        callId: 'call_s1',
        name: 'lookup_order',
        result: '{"order_id":"A-1001","status":"shipped"}',
        isError: false,
      },
    ]);
    const thinking = events.flatMap((event) => (event.type === 'thinking-delta' ? [event.text] : []));
    expect(thinking.join('')).toBe('The tool said shipped.');
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      result: { response: 'It shipped.', num_turns: 2 },
    });
  });

  it('reset() starts a new conversation with a new id and no history', async () => {
    fake.script(chatReply('Noted.'), chatReply('Who are you?'));
    const backend = await started(openaiAgent());
    const session = await backend.createSession();
    await session.send('The code word is heron.');
    const before = session.sessionId;
    await session.reset();
    const after = await session.send('What is the code word?');
    await backend.teardown();

    expect(after.session_id).toBeDefined();
    expect(after.session_id).not.toBe(before);
    expect(chatMessages(request(1)).map((message) => message.role)).toEqual(['system', 'user']);
  });

  it('an unknown session id says so and where it looked', async () => {
    const agent = openaiAgent();
    const backend = await started(agent);
    const missing = '00000000-0000-4000-8000-000000000000';
    const attempt = backend.createSession({ resume: missing });
    await expect(attempt).rejects.toThrow(AgentSessionError);
    await expect(attempt).rejects.toThrow(
      `no saved session "${missing}" for this agent: looked for ${path.join(agent.directory, '.holodeck', 'sessions', `${missing}.json`)}. Sessions are saved next to agent.yaml, in .holodeck/sessions/`,
    );
    await backend.teardown();
  });

  it('an API error arrives in band before finish', async () => {
    fake.script(openaiError(400, { message: "Invalid value for 'temperature'." }));
    const backend = await started(openaiAgent());
    const session = await backend.createSession();
    const events = await collect(session.sendStreaming('hi'));
    await backend.teardown();

    const reason = "the model API answered HTTP 400: Invalid value for 'temperature'.";
    expect(events.slice(-2)).toEqual([
      { type: 'error', message: reason },
      { type: 'finish', result: expect.objectContaining({ is_error: true, error_reason: reason }) },
    ]);
  });
});

describe('AI SDK backend: failures', () => {
  it('gives up after 3 attempts on server errors', async () => {
    const failure = () => openaiError(500, {}, { retryAfterMs: 5 });
    fake.script(failure(), failure(), failure());
    const result = await invoke(openaiAgent(), 'hi');

    expect(fake.requests).toHaveLength(3);
    expect(result).toMatchObject({
      is_error: true,
      response: '',
      error_reason:
        'the model API failed 3 times in a row: the model API answered HTTP 500: The server had an error while processing your request. Sorry about that!',
    });
  });

  it('retries a 429 and succeeds', async () => {
    fake.script(openaiError(429, {}, { retryAfterMs: 5 }), chatReply('Made it.'));
    const result = await invoke(openaiAgent(), 'hi');

    expect(fake.requests).toHaveLength(2);
    expect(result).toMatchObject({ is_error: false, response: 'Made it.' });
  });

  it('a 401 names the key variable and never shows the key', async () => {
    const guarded = await startFakeOpenAI({ apiKey: 'sk-the-right-key-9999' });
    try {
      const agent = createE2eAgent(guarded.url, {
        config: { model: { provider: 'openai', name: 'gpt-4o', endpoint: guarded.baseUrl } },
        env: { OPENAI_API_KEY: OPENAI_KEY },
      });
      const result = await invoke(agent, 'hi');

      expect(guarded.unexpected).toHaveLength(1);
      expect(result.is_error).toBe(true);
      expect(result.error_reason).toMatch(
        /^authentication failed \(HTTP 401\): check OPENAI_API_KEY\. Incorrect API key/,
      );
      expect(JSON.stringify(result)).not.toContain(OPENAI_KEY);
    } finally {
      await guarded.close();
    }
  });

  it('a missing key stops initialize with a CredentialError naming the variable, before any request', async () => {
    const agent = createE2eAgent(fake.url, {
      config: { model: { provider: 'openai', name: 'gpt-4o', endpoint: fake.baseUrl } },
    });
    const backend = new AiSdkBackend(await agent.load());
    const attempt = backend.initialize();
    await expect(attempt).rejects.toThrow(CredentialError);
    await expect(attempt).rejects.toThrow(
      'provider openai needs an API key, but OPENAI_API_KEY is not set. Set it in the environment, in .env next to agent.yaml or in ~/.holodeck/.env, or set model.api_key in agent.yaml.',
    );
    expect(fake.allRequests).toHaveLength(0);
  });

  it('an abort rejects the run with AgentSessionError', async () => {
    fake.script(chatReply('too late', { delayMs: 5_000 }));
    const backend = await started(openaiAgent());
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('case timeout')), 200);
    const attempt = backend.invokeOnce('hi', [], { signal: controller.signal });
    await expect(attempt).rejects.toThrow(AgentSessionError);
    await expect(attempt).rejects.toThrow('the run was stopped: case timeout');
    await backend.teardown();
  });

  it("a test case's timeout bounds a model request that does not answer", async () => {
    fake.script(chatReply('too late', { delayMs: 20_000 }));
    const agent = openaiAgent({ config: { test_cases: [{ name: 'slow', input: 'hi', timeout: 1 }] } });
    const report = path.join(agent.directory, 'report.json');
    const outcome = await runHolodeckCli(['test', agent.file, '--no-save', '--output', report], agent.env);
    expect(outcome.code).toBe(1);
    const [slow] = JSON.parse(await readFile(report, 'utf8')).cases;
    expect(slow).toMatchObject({ name: 'slow', error: 'timed out after 1 s' });
  });

  it('API_TIMEOUT_MS bounds each model request, as it does for the Claude CLI', async () => {
    fake.script(...Array.from({ length: 3 }, () => chatReply('too late', { delayMs: 5_000 })));
    const agent = openaiAgent({ env: { API_TIMEOUT_MS: '300' } });
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'hi'], agent.env);
    expect(outcome.code).toBe(3);
    expect(outcome.stderr).toContain(`no answer from ${fake.baseUrl}/chat/completions within 0.3 s`);
  });

  it('a malformed API_TIMEOUT_MS stops the agent before any request, naming the variable', async () => {
    for (const value of ['soon', '0', '1.5']) {
      const agent = openaiAgent({ env: { API_TIMEOUT_MS: value } });
      const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'hi'], agent.env);
      expect(outcome).toMatchObject({
        code: 2,
        stderr: `error API_TIMEOUT_MS: needs a whole number of milliseconds ≥ 1, got "${value}"\n    hint: unset it for the default of 120000 (2 minutes)\n`,
      });
    }
    expect(fake.allRequests).toHaveLength(0);
  });

  it('runs the retrieval checks in initialize(), even when the loader did not check', async () => {
    const agent = openaiAgent({
      config: {
        tools: [{ type: 'vectorstore', name: 'kb', description: 'Knowledge base', source: 'nowhere' }],
      },
    });
    // config/'s loader alone runs no backend rules: initialize() must.
    const loaded = await loadAgentConfig(agent.file, {
      env: agent.env,
      homeDir: path.join(agent.directory, 'home'),
    });
    const backend = new AiSdkBackend(loaded);
    await expect(backend.initialize()).rejects.toThrow(
      `1 problem in agent configuration:\n${agent.file}  tools[0].source: ${agent.directory}/nowhere does not exist\n    hint: point source at a file or folder, relative to agent.yaml`,
    );
  });

  it('governs tool calls with Novarch: a read is evidence, a write that a rule passes runs', async () => {
    fake.script(
      chatToolCall('lookup_order', { order_id: 'A-1' }, { id: 'l1' }),
      chatToolCall('refund_order', { order_id: 'A-1', amount: 20 }, { id: 'r1' }),
      chatReply('Refunded.'),
    );
    const agent = governedOpenaiAgent();
    const result = await invoke(agent, 'refund A-1');
    expect(result).toMatchObject({ is_error: false, response: 'Refunded.' });
    expect(result.governance).toMatchObject({
      killed: false,
      verdicts: [{ tool: 'mcp__holodeck_tools__refund_order', action_type: 'refund_order', verdict: 'pass' }],
    });
    expect(await readFile(path.join(agent.directory, 'refunds.log'), 'utf8')).toBe('A-1');
  });

  it('hold events carry the id of the held call, as its tool-call event does', async () => {
    fake.script(
      chatToolCall('lookup_order', { order_id: 'A-1' }, { id: 'call_l1' }),
      chatToolCall('refund_order', { order_id: 'A-1', amount: 900 }, { id: 'call_r1' }),
      chatReply('It is held.'),
    );
    // Nobody decides the hold: it times out after 2 s (long enough to be offered to an operator).
    const backend = await started(governedOpenaiAgent(2));
    const session = await backend.createSession();
    const events = await collect(session.sendStreaming('refund A-1, 900'));
    await backend.teardown();
    const call = events.find((event) => event.type === 'tool-call' && event.name === 'refund_order');
    expect(call).toMatchObject({ callId: 'call_r1' });
    const holds = events.flatMap((event) =>
      event.type === 'hold-pending' || event.type === 'hold-resolved' ? [event] : [],
    );
    expect(holds).toEqual([
      {
        type: 'hold-pending',
        hold: expect.objectContaining({ callId: 'call_r1', toolName: 'mcp__holodeck_tools__refund_order' }),
      },
      {
        type: 'hold-resolved',
        hold: expect.objectContaining({ callId: 'call_r1', status: 'timed_out', stopsSession: true }),
      },
    ]);
    expect(holds[0]?.hold.holdId).toBe(holds[1]?.hold.holdId);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
