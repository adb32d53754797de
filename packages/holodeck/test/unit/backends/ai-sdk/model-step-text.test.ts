import { createOpenAI } from '@ai-sdk/openai';
import { chatReply, chatToolCall, type FakeOpenAIServer, startFakeOpenAI } from '@holodeck/testkit';
import { jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelStepText } from '../../../../src/backends/ai-sdk/model-step-text.js';

// The text a governed run's tool call gets as its rationale, read from the model's stream by the
// AI SDK itself (streamText against the fake OpenAI-compatible server): what the model wrote in
// the step that made the call, when the call executes; a later step starts with none.
let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAI();
});
afterAll(() => server.close());

describe('ModelStepText', () => {
  it('gives each tool call the text of its own step, as the call executes', async () => {
    server.script(
      chatToolCall('lookup', { id: 'A-1' }, { text: 'Let me look A-1 up.' }),
      chatToolCall('lookup', { id: 'A-2' }),
      chatReply('Both shipped.'),
    );
    const stepText = new ModelStepText();
    const seen: string[] = [];
    const provider = createOpenAI({ baseURL: server.baseUrl, apiKey: 'sk-test' });
    const run = streamText({
      model: stepText.wrap(provider.chat('gpt-4o')),
      prompt: 'look both up',
      stopWhen: stepCountIs(5),
      tools: {
        lookup: tool({
          inputSchema: jsonSchema<{ id: string }>({ type: 'object', properties: { id: { type: 'string' } } }),
          execute: async ({ id }) => {
            seen.push(stepText.current());
            return `${id} shipped`;
          },
        }),
      },
    });
    expect(await run.text).toBe('Both shipped.');
    expect(seen).toEqual(['Let me look A-1 up.', '']);
    expect(stepText.current()).toBe('Both shipped.');
  });
});
