import { reply, toolNames, toolUse } from '@holodeck/testkit';
import { describe, expect, it } from 'vitest';
import { requestAt } from './support/e2e-agent.js';
import { invokeAgent } from './support/invoke-agent.js';
import { useFakeModel } from './support/use-fake-model.js';

const fake = useFakeModel();

const responseFormat = {
  type: 'object',
  properties: { answer: { type: 'string' }, confidence: { type: 'number', minimum: 0, maximum: 1 } },
  required: ['answer', 'confidence'],
  additionalProperties: false,
};

function run(message: string) {
  return invokeAgent(fake().url, message, { config: { response_format: responseFormat } });
}

describe('response_format (SDK structured output, validated with ajv)', () => {
  it('returns the validated object and its JSON as the response', async () => {
    fake().script(toolUse('StructuredOutput', { answer: 'Paris', confidence: 0.9 }));
    const result = await run('Capital of France?');
    expect(toolNames(requestAt(fake(), 0))).toContain('StructuredOutput');
    expect(result).toMatchObject({
      is_error: false,
      structured_output: { answer: 'Paris', confidence: 0.9 },
      response: '{"answer":"Paris","confidence":0.9}',
    });
  });

  it('is an error when the agent never produces structured output, even if the run says success', async () => {
    fake().script(reply('Paris, I think.'), reply('Still just text.'));
    const result = await run('Capital of France?');
    expect(result.is_error).toBe(true);
    // The CLI asks once more ("You MUST call the StructuredOutput tool"), then ends with subtype success.
    expect(fake().requests).toHaveLength(2);
    expect(result.error_reason).toBe(
      'response_format is configured but the agent returned no structured output',
    );
    expect(result.structured_output).toBeUndefined();
  });

  it('reports the schema errors of the last attempt when the run ends at max_turns still trying', async () => {
    // Each invalid StructuredOutput call is answered with the CLI's validation error; the model tries again.
    fake().script(
      toolUse('StructuredOutput', { answer: 'Paris', confidence: 7 }),
      toolUse('StructuredOutput', { answer: 42, confidence: 0.5 }),
      reply('giving up'),
    );
    const result = await invokeAgent(fake().url, 'Capital of France?', {
      config: { response_format: responseFormat, max_turns: 2 },
    });
    expect(result.is_error).toBe(true);
    expect(result.error_reason).toMatch(
      /^the agent's structured output did not match response_format \(\d attempt\(s\); the last: \/(answer must be string|confidence must be <= 1)\); (max_turns limit reached|the agent did not produce output matching response_format after several attempts)$/,
    );
    fake().reset();
  });
});
