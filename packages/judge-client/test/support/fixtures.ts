import { JudgeClientError } from '../../src/judge-client-error.js';
import type { StructuredRequest } from '../../src/structured-request.js';

/** A fake key; tests check that no message ever contains it. */
export const SECRET = 'sk-test-secret-0123456789abcdef';

export const schema = {
  type: 'object',
  properties: { reason: { type: 'string' }, score: { type: 'integer', minimum: 1, maximum: 5 } },
  required: ['reason', 'score'],
  additionalProperties: false,
};

export const request: StructuredRequest = {
  system: 'You grade.',
  prompt: 'Grade <agent_response>x</agent_response>',
  toolName: 'submit_verdict',
  toolDescription: 'Submit your verdict.',
  schema,
};

/** The JudgeClientError a promise rejects with (fails the test on anything else). */
export async function clientError(promise: Promise<unknown>): Promise<JudgeClientError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof JudgeClientError))
    throw new Error(`expected a JudgeClientError, got ${String(error)}`);
  return error;
}

/** The JudgeClientError a function throws. */
export function thrownError(run: () => unknown): JudgeClientError {
  try {
    run();
  } catch (error) {
    if (error instanceof JudgeClientError) return error;
    throw new Error(`expected a JudgeClientError, got ${String(error)}`);
  }
  throw new Error('expected a JudgeClientError, nothing was thrown');
}

/** Everything a user or a log could see of an error: message, stack, JSON. */
export function visibleText(error: Error): string {
  return [error.message, error.stack ?? '', JSON.stringify(error)].join('\n');
}

/** A Chat Completions answer whose only tool call has these arguments. */
export function toolCallCompletion(
  name: string,
  args: string | Record<string, unknown>,
  options: { finishReason?: string } = {},
) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        finish_reason: options.finishReason ?? 'tool_calls',
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
            },
          ],
        },
      },
    ],
  };
}

/** A Chat Completions answer with text and no tool call. */
export function textCompletion(text: string, finishReason = 'stop') {
  return {
    id: 'chatcmpl-2',
    object: 'chat.completion',
    choices: [{ index: 0, finish_reason: finishReason, message: { role: 'assistant', content: text } }],
  };
}
