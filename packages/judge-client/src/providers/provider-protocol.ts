import type { AnswerUsage } from '../answer-usage.js';
import type { FailFunction } from '../judge-client-error.js';
import type { StructuredRequest } from '../structured-request.js';

/** What reading an answer needs besides the answer. */
export interface ReadContext {
  request: StructuredRequest;
  maxTokens: number;
  fail: FailFunction;
}

/** The forced tool call found in an answer. */
export interface ToolInput {
  /** Its input: a JSON object, not yet checked against the schema. */
  input: Record<string, unknown>;
  /** The answer ended at the token limit (a likely reason the input does not fit the schema). */
  truncated: boolean;
}

/** One provider's wire format: where to POST, what to send, and how to find the tool call in the answer. */
export interface ProviderProtocol {
  url: string;
  /** Credentials and content type. */
  headers: Record<string, string>;
  /** Said after a 404, e.g. ` (check the model name "gpt-4o")`. */
  notFoundHint: string;
  body(request: StructuredRequest, maxTokens: number): Record<string, unknown>;
  /**
   * The forced tool call of a 2xx answer. Throws an `invalid-answer` JudgeClientError when the
   * answer has no such call, or its input is not a JSON object.
   */
  readToolInput(answer: unknown, context: ReadContext): ToolInput;
  /** The tokens a 2xx answer was billed for; undefined when it does not say. */
  readUsage(answer: unknown): AnswerUsage | undefined;
}
