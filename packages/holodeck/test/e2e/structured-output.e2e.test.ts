import { reply, startFakeAnthropic, toolNames, toolUse } from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ClaudeBackend } from '../../src/backends/claude/claude-backend.js';
import { createE2eAgent, requestAt } from './support/e2e-agent.js';

let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterEach(() => {
  try {
    fake.assertComplete();
  } finally {
    fake.reset();
  }
});
afterAll(() => fake.close());

const responseFormat = {
  type: 'object',
  properties: { answer: { type: 'string' }, confidence: { type: 'number', minimum: 0, maximum: 1 } },
  required: ['answer', 'confidence'],
  additionalProperties: false,
};

async function run(message: string) {
  const agent = createE2eAgent(fake.url, { config: { response_format: responseFormat } });
  const backend = new ClaudeBackend(await agent.load());
  await backend.initialize();
  try {
    return await backend.invokeOnce(message);
  } finally {
    await backend.teardown();
  }
}

describe('response_format (SDK structured output, validated with ajv)', () => {
  it('returns the validated object and its JSON as the response', async () => {
    fake.script(toolUse('StructuredOutput', { answer: 'Paris', confidence: 0.9 }));
    const result = await run('Capital of France?');
    expect(toolNames(requestAt(fake, 0))).toContain('StructuredOutput');
    expect(result).toMatchObject({
      is_error: false,
      structured_output: { answer: 'Paris', confidence: 0.9 },
      response: '{"answer":"Paris","confidence":0.9}',
    });
  });

  it('is an error when the agent never produces structured output, even if the run says success', async () => {
    fake.script(reply('Paris, I think.'), reply('Still just text.'));
    const result = await run('Capital of France?');
    expect(result.is_error).toBe(true);
    // The CLI asks once more ("You MUST call the StructuredOutput tool"), then ends with subtype success.
    expect(fake.requests).toHaveLength(2);
    expect(result.error_reason).toBe(
      'response_format is configured but the agent returned no structured output',
    );
    expect(result.structured_output).toBeUndefined();
  });
});
