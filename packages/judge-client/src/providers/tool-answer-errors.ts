import type { JudgeClientError } from '../judge-client-error.js';
import type { ReadContext } from './provider-protocol.js';

/** Said when an answer ended at the token limit, which is the likely reason it is unusable. */
export function truncationNote(truncated: boolean, maxTokens: number): string {
  return truncated
    ? ` The answer was cut off at max_tokens (${maxTokens}); raise the judge's max_tokens.`
    : '';
}

/** The model answered without calling the tool; quotes the start of what it said. */
export function noToolCall(context: ReadContext, text: string, truncated: boolean): JudgeClientError {
  const trimmed = text.trim();
  const said = trimmed === '' ? '' : ` It said: ${JSON.stringify(trimmed.slice(0, 200))}.`;
  return context.fail(
    `the judge did not call ${context.request.toolName}.${said}${truncationNote(truncated, context.maxTokens)}`,
    { code: 'invalid-answer' },
  );
}

/** The answer is not the provider's response format at all. */
export function notAResponse(context: ReadContext, what: string): JudgeClientError {
  return context.fail(`the judge API answer is not ${what}`, { code: 'invalid-answer' });
}

/** A JSON object (not an array, not null): the only shape a tool input may have. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
