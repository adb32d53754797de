import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSdkMcpServer, tool } from '@anthropic-ai/claude-agent-sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  apiError,
  type FakeAnthropicServer,
  lastUserText,
  type RecordedRequest,
  reply,
  respond,
  startFakeAnthropic,
  systemPromptText,
  thinking,
  toolNames,
  toolResults,
  toolUse,
} from '../../src/index.js';
import { deltaEvents } from '../support/event-schemas.js';
import { baseOptions, runCliQuery } from '../support/run-cli-query.js';

// The real Claude Code CLI (bundled with @anthropic-ai/claude-agent-sdk) against the fake server.
// One server for the file, reset between tests; each test spawns one CLI process (~1 s).
let server: FakeAnthropicServer;
let home: string;

beforeAll(async () => {
  server = await startFakeAnthropic();
  home = mkdtempSync(join(tmpdir(), 'testkit-e2e-home-'));
});

beforeEach(() => {
  server.reset();
});

afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

/** The n-th (0-based) agent-loop request; fails the test if there is none. */
function agentRequest(index: number): RecordedRequest {
  const request = server.requests[index];
  if (request === undefined)
    throw new Error(`expected agent-loop request #${index + 1}, got ${server.requests.length}`);
  return request;
}

function streamEvents(messages: readonly { type: string }[]): unknown[] {
  return messages.flatMap((message) =>
    message.type === 'stream_event' && 'event' in message ? [message.event] : [],
  );
}

describe('the real CLI against the fake Messages API', () => {
  it('returns a scripted reply as the result, and records model, system prompt and user message', async () => {
    server.script(reply('Hello from the fake model.'));
    const run = await runCliQuery('Say hello', baseOptions(server, home));

    expect(run.error).toBeUndefined();
    expect(run.result).toMatchObject({
      subtype: 'success',
      is_error: false,
      result: 'Hello from the fake model.',
    });
    server.assertComplete();
    const request = agentRequest(0);
    expect(request).toMatchObject({ method: 'POST', path: '/v1/messages', query: '?beta=true' });
    expect(request.messagesBody).toMatchObject({ model: 'claude-sonnet-4-5', stream: true, tools: [] });
    expect(request.messagesBody?.thinking).toEqual({ type: 'disabled' });
    expect(systemPromptText(request)).toContain("built on Anthropic's Claude Agent SDK");
    expect(request.headers).toMatchObject({
      'x-api-key': 'sk-test-fake',
      'anthropic-version': '2023-06-01',
      'user-agent': expect.stringMatching(/^claude-cli\/2\.1\.332 /),
    });
    expect(lastUserText(request).endsWith('Say hello')).toBe(true);
  });

  it('streams text as several text_delta events with includePartialMessages', async () => {
    server.script(reply('one two three four five six seven eight nine'));
    const run = await runCliQuery('Count', { ...baseOptions(server, home), includePartialMessages: true });

    const textDeltas = deltaEvents(streamEvents(run.messages)).filter(
      (event) => event.delta.type === 'text_delta',
    );
    expect(textDeltas.length).toBeGreaterThanOrEqual(3);
    expect(run.result).toMatchObject({ result: 'one two three four five six seven eight nine' });
    server.assertComplete();
  });

  it('runs a tool round-trip with an SDK MCP server; the next request carries the tool_result', async () => {
    const calc = createSdkMcpServer({
      name: 'calc',
      version: '1.0.0',
      tools: [
        tool('add', 'Add two numbers', { a: z.number(), b: z.number() }, async ({ a, b }) => ({
          content: [{ type: 'text', text: `sum=${a + b}` }],
        })),
      ],
    });
    server.script(
      toolUse('mcp__calc__add', { a: 2, b: 3 }, { text: 'Let me add.', id: 'toolu_add_1' }),
      respond((request) =>
        reply(`The tool said ${toolResults(request)[0]?.text.split('\n')[0] ?? 'nothing'}`),
      ),
    );
    // CLAUDE_CODE_EMIT_TOOL_USE_SUMMARIES makes the CLI send a tool-free helper request between
    // the two agent-loop requests; the classification rule must keep it off the script.
    const run = await runCliQuery('Add 2 and 3', {
      ...baseOptions(server, home, { CLAUDE_CODE_EMIT_TOOL_USE_SUMMARIES: '1' }),
      mcpServers: { calc },
      allowedTools: ['mcp__calc__add'],
    });

    expect(run.result).toMatchObject({ is_error: false, result: 'The tool said sum=5' });
    server.assertComplete();
    expect(server.requests).toHaveLength(2);
    expect(toolNames(agentRequest(0))).toEqual(['mcp__calc__add']);
    expect(toolResults(agentRequest(1))).toMatchObject([{ toolUseId: 'toolu_add_1', isError: false }]);
    expect(server.auxiliaryRequests.map((request) => request.reason)).toEqual([
      'helper: Claude Code request without the environment context',
    ]);
  });

  it('ends the run promptly with an error result on apiError(401) when retries are off', async () => {
    server.script(apiError(401, { type: 'authentication_error', message: 'invalid x-api-key' }));
    const run = await runCliQuery('Hi', baseOptions(server, home));

    // CLI 2.1.332 reports API errors as subtype "success" with is_error, then query() throws.
    expect(run.result).toMatchObject({ is_error: true, api_error_status: 401 });
    expect(run.error?.message).toContain('Claude Code returned an error result');
    // One request: the CLI did not retry (a retried run would send more).
    expect(server.requests).toHaveLength(1);
    server.assertComplete();
  });

  it('streams a thinking block as thinking_delta events with its signature', async () => {
    server.script(thinking('Weighing the options before answering.', 'Decided.'));
    const run = await runCliQuery('Think first', {
      ...baseOptions(server, home),
      includePartialMessages: true,
    });

    const deltas = deltaEvents(streamEvents(run.messages)).map((event) => event.delta.type);
    expect(deltas.filter((type) => type === 'thinking_delta').length).toBeGreaterThanOrEqual(2);
    expect(deltas).toContain('signature_delta');
    const assistantBlocks = run.messages.flatMap((message) =>
      message.type === 'assistant' ? message.message.content : [],
    );
    expect(assistantBlocks).toContainEqual({
      type: 'thinking',
      thinking: 'Weighing the options before answering.',
      signature: 'fake-anthropic-signature',
    });
    expect(run.result).toMatchObject({ result: 'Decided.' });
  });

  it('fails loudly but promptly when the script is exhausted, even with retries left', async () => {
    const run = await runCliQuery('Hi', baseOptions(server, home, { CLAUDE_CODE_MAX_RETRIES: '3' }));

    expect(run.result).toMatchObject({ is_error: true, api_error_status: 500 });
    // x-should-retry: false stops the CLI from retrying.
    expect(server.unexpected).toHaveLength(1);
    expect(() => server.assertComplete()).toThrow('script exhausted (request #1)');
  });
});
