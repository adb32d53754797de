import { APICallError, RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  buildExecutionResult,
  type ResultContext,
} from '../../../../src/backends/ai-sdk/build-execution-result.js';
import { translateStreamPart } from '../../../../src/backends/ai-sdk/translate-stream-part.js';
import { createTurnState } from '../../../../src/backends/ai-sdk/turn-state.js';
import { compileUserSchema } from '../../../../src/json-schema/create-ajv.js';
import { finishStep, type Part, startStep, text, toolCall, toolResult } from './stream-parts.js';

const context: ResultContext = {
  startedAt: Date.now(),
  maxTurns: 3,
  credentialHint: 'check OPENAI_API_KEY',
  secrets: ['sk-secret-123'],
  sessionId: 's-1',
  pricing: {
    kind: 'unknown',
    reason: 'ollama runs llama3.2 on your own machine, so it has no per-token price',
  },
};

function resultOf(parts: Part[], extra: Partial<ResultContext> = {}) {
  const state = createTurnState();
  for (const part of parts) translateStreamPart(part, state);
  return buildExecutionResult(state, { ...context, ...extra });
}

function apiError(status: number, message: string, headers: Record<string, string> = {}) {
  return new APICallError({
    message,
    url: 'http://127.0.0.1/v1/chat/completions',
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: headers,
    isRetryable: status === 429 || status >= 500,
  });
}

describe('buildExecutionResult', () => {
  it('a finished run: answer, turns, usage, no cost without prices (and why), session id', () => {
    const result = resultOf([startStep, text('Hi there'), finishStep('stop')]);
    expect(result).toMatchObject({
      response: 'Hi there',
      num_turns: 1,
      is_error: false,
      cost_usd: null,
      cost_unknown_reason: 'ollama runs llama3.2 on your own machine, so it has no per-token price',
      session_id: 's-1',
      token_usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
    expect(result.error_reason).toBeUndefined();
    expect(result.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('with prices, the cost is the tokens of every step at those prices', () => {
    const result = resultOf(
      [startStep, text('a'), finishStep('tool-calls'), startStep, text('b'), finishStep('stop')],
      {
        pricing: { kind: 'prices', prices: { input: 2, output: 8 }, source: 'test' },
      },
    );
    // Two steps of 10 in / 5 out each: 20 × $2 + 10 × $8 per million.
    expect(result.cost_usd).toBeCloseTo((20 * 2 + 10 * 8) / 1e6, 12);
    expect(result.cost_unknown_reason).toBeUndefined();
  });

  it('max turns reached while the model still calls tools is an error, with the Claude wording', () => {
    const step = (id: string): Part[] => [
      startStep,
      toolCall(id, 'lookup', {}),
      toolResult(id, 'lookup', { text: 'x', isError: false }),
      finishStep('tool-calls'),
    ];
    const result = resultOf([...step('a'), ...step('b'), ...step('c')]);
    expect(result).toMatchObject({ is_error: true, error_reason: 'max_turns limit reached', num_turns: 3 });
    expect(result.tool_results).toHaveLength(3);
    // The same steps under a higher limit ended for another reason: not a max-turns failure.
    expect(resultOf([...step('a'), finishStep('stop')], { maxTurns: 5 }).is_error).toBe(false);
  });

  it('names the HTTP status and the number of attempts of an API error after retries', () => {
    const errors = [apiError(500, 'boom'), apiError(500, 'boom'), apiError(500, 'The server had an error')];
    const retry = new RetryError({
      message: 'Failed after 3 attempts',
      reason: 'maxRetriesExceeded',
      errors,
    });
    expect(resultOf([{ type: 'error', error: retry }])).toMatchObject({
      is_error: true,
      error_reason:
        'the model API failed 3 times in a row: the model API answered HTTP 500: The server had an error',
      response: '',
      num_turns: 0,
    });
    expect(resultOf([{ type: 'error', error: apiError(400, "Invalid 'messages'") }]).error_reason).toBe(
      "the model API answered HTTP 400: Invalid 'messages'",
    );
  });

  it('on 401/403 says which credential to check, and never shows the key', () => {
    const error = apiError(401, 'Incorrect API key provided: sk-secret-123.');
    expect(resultOf([{ type: 'error', error }]).error_reason).toBe(
      'authentication failed (HTTP 401): check OPENAI_API_KEY. Incorrect API key provided: [redacted].',
    );
    expect(resultOf([{ type: 'error', error: apiError(403, 'Forbidden') }]).error_reason).toBe(
      'authentication failed (HTTP 403): check OPENAI_API_KEY. Forbidden',
    );
  });

  it('an aborted run says so', () => {
    expect(resultOf([startStep, text('par'), { type: 'abort', reason: 'Ctrl-C' }])).toMatchObject({
      is_error: true,
      error_reason: 'the run was stopped: Ctrl-C',
    });
  });

  describe('structured output', () => {
    const validate = compileUserSchema({
      type: 'object',
      properties: { answer: { type: 'string' } },
      required: ['answer'],
    });
    const answer = (body: string, reason: 'stop' | 'length' = 'stop') =>
      resultOf([startStep, text(body), finishStep(reason)], { validateStructuredOutput: validate });

    it('a valid object is the structured output', () => {
      expect(answer('{"answer": "42"}')).toMatchObject({
        is_error: false,
        structured_output: { answer: '42' },
        response: '{"answer":"42"}',
      });
    });

    it('every way an answer can miss response_format is an error saying what was wrong', () => {
      const wrong = answer('{"answer": 42}');
      expect(wrong).toMatchObject({
        is_error: true,
        error_reason: 'structured output does not match response_format: /answer must be string',
        response: '{"answer": 42}',
      });
      expect(wrong.structured_output).toBeUndefined();
      expect(answer('{}').error_reason).toBe(
        "structured output does not match response_format: (root) must have required property 'answer'",
      );
      expect(answer('The answer is 42').error_reason).toMatch(
        /^response_format is configured but the agent's answer is not JSON: Unexpected token/,
      );
      expect(answer('{"answer": "4', 'length').error_reason).toMatch(
        /is not JSON: .* \(the answer was cut off at model\.max_tokens\)$/,
      );
      expect(answer('').error_reason).toBe(
        'response_format is configured but the agent returned no structured output',
      );
    });
  });
});
