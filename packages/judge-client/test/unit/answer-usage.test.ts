import { type FakeAnthropicServer, startFakeAnthropic, toolUse } from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerUsage } from '../../src/answer-usage.js';
import { createStructuredClient } from '../../src/create-structured-client.js';
import { request, SECRET, toolCallCompletion } from '../support/fixtures.js';
import { type ScriptedServer, startScriptedServer } from '../support/scripted-server.js';

let anthropic: FakeAnthropicServer;
let chat: ScriptedServer;

beforeAll(async () => {
  anthropic = await startFakeAnthropic();
  chat = await startScriptedServer();
});
afterAll(async () => {
  await anthropic.close();
  await chat.close();
});

describe('onUsage: the tokens each answer was billed for', () => {
  it('reads the Messages API usage, cache reads and writes apart', async () => {
    const seen: AnswerUsage[] = [];
    anthropic.script(
      toolUse(
        'submit_verdict',
        { reason: 'fine', score: 4 },
        {
          usage: {
            input_tokens: 120,
            output_tokens: 30,
            cache_read_input_tokens: 7,
            cache_creation_input_tokens: 5,
          },
        },
      ),
    );
    const client = createStructuredClient({
      provider: 'anthropic',
      model: 'claude-judge-test',
      env: { ANTHROPIC_API_KEY: SECRET, ANTHROPIC_BASE_URL: anthropic.url },
      onUsage: (usage) => seen.push(usage),
    });
    await client.ask(request);
    expect(seen).toEqual([
      {
        input_tokens: 120,
        output_tokens: 30,
        cache_read_tokens: 7,
        cache_creation_tokens: 5,
        counting: 'cache-apart',
      },
    ]);
  });

  it('reads Chat Completions usage, cached tokens inside the prompt tokens, and counts a refused answer too', async () => {
    const seen: AnswerUsage[] = [];
    const usage = {
      prompt_tokens: 200,
      completion_tokens: 40,
      total_tokens: 240,
      prompt_tokens_details: { cached_tokens: 50 },
    };
    chat.script(
      { body: { ...toolCallCompletion('submit_verdict', { reason: 'fine', score: 4 }), usage } },
      // Paid for, then refused: its input does not match the schema.
      { body: { ...toolCallCompletion('submit_verdict', { reason: 'fine' }), usage } },
    );
    const client = createStructuredClient({
      provider: 'openai',
      model: 'gpt-judge',
      env: { OPENAI_API_KEY: SECRET, OPENAI_BASE_URL: `${chat.url}/v1` },
      onUsage: (answer) => seen.push(answer),
    });
    await client.ask(request);
    await expect(client.ask(request)).rejects.toThrow('does not match its schema');
    const billed = {
      input_tokens: 200,
      output_tokens: 40,
      cache_read_tokens: 50,
      cache_creation_tokens: 0,
      counting: 'cache-included',
    };
    expect(seen).toEqual([billed, billed]);
  });

  it('says nothing for an answer without usage', async () => {
    const seen: AnswerUsage[] = [];
    chat.script({ body: toolCallCompletion('submit_verdict', { reason: 'fine', score: 4 }) });
    const client = createStructuredClient({
      provider: 'openai',
      model: 'gpt-judge',
      env: { OPENAI_API_KEY: SECRET, OPENAI_BASE_URL: `${chat.url}/v1` },
      onUsage: (answer) => seen.push(answer),
    });
    await client.ask(request);
    expect(seen).toEqual([]);
  });

  it("tells each call's own answer through ask's onAnswer: once per billed answer, a retried 429 not, no usage as undefined", async () => {
    const usage = { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 };
    chat.script(
      { status: 429, body: { error: { message: 'slow down' } } },
      { body: { ...toolCallCompletion('submit_verdict', { reason: 'fine', score: 4 }), usage } },
      { body: toolCallCompletion('submit_verdict', { reason: 'fine', score: 2 }) },
    );
    const client = createStructuredClient({
      provider: 'openai',
      model: 'gpt-judge',
      env: { OPENAI_API_KEY: SECRET, OPENAI_BASE_URL: `${chat.url}/v1` },
      retryDelayMs: 1,
    });
    const first: (AnswerUsage | undefined)[] = [];
    const second: (AnswerUsage | undefined)[] = [];
    await client.ask(request, undefined, (answer) => first.push(answer));
    await client.ask(request, undefined, (answer) => second.push(answer));
    expect(first).toEqual([
      {
        input_tokens: 11,
        output_tokens: 3,
        cache_read_tokens: 0,
        cache_creation_tokens: 0,
        counting: 'cache-included',
      },
    ]);
    expect(second).toEqual([undefined]);
    chat.assertComplete();
  });
});
