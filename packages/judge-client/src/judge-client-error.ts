/** Why a judge call failed. */
export type JudgeClientErrorCode =
  /** The options cannot work (unknown provider, a bad URL, no endpoint for azure_openai, a bad schema). */
  | 'configuration'
  /** No credentials: `variable` names what to set. Raised before any request. */
  | 'credentials'
  /** The API rejected the credentials (401/403): `variable` names what to check. */
  | 'authentication'
  /** Any other HTTP error, after the retries a 429 or 5xx gets; `status` is set. */
  | 'http'
  /** The API could not be reached, after the retries. */
  | 'network'
  /** No answer within the per-attempt timeout, after the retries. */
  | 'timeout'
  /** The model answered, but not with a call of the tool whose input matches the schema. */
  | 'invalid-answer'
  /** The caller's AbortSignal fired; `cause` is its reason. */
  | 'aborted';

/** Structured details of a JudgeClientError. */
export interface JudgeClientErrorDetails {
  code: JudgeClientErrorCode;
  /** The HTTP status, for `authentication`, `http` and a non-JSON success. */
  status?: number;
  /** The environment variable (or option) to set or check, for `credentials` and `authentication`. */
  variable?: string;
  /** How many requests were sent, for errors that follow requests. */
  attempts?: number;
  cause?: unknown;
}

/**
 * A judge call could not give a usable answer. The message says what went wrong and what to do,
 * and never contains the credential (it is replaced by `[redacted]`).
 */
export class JudgeClientError extends Error {
  override name = 'JudgeClientError';
  readonly code: JudgeClientErrorCode;
  readonly status: number | undefined;
  readonly variable: string | undefined;
  readonly attempts: number | undefined;

  constructor(message: string, details: JudgeClientErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = details.code;
    this.status = details.status;
    this.variable = details.variable;
    this.attempts = details.attempts;
  }
}

/** Replaces every occurrence of `secret` in `text`, so no message can leak it. */
export function redactSecret(text: string, secret: string): string {
  return secret === '' ? text : text.split(secret).join('[redacted]');
}

/**
 * Makes JudgeClientErrors whose message is scrubbed of `secret` before the error exists (the
 * stack trace repeats the message, so scrubbing afterwards would be too late).
 */
export type FailFunction = (message: string, details: JudgeClientErrorDetails) => JudgeClientError;

/** A FailFunction for one secret. */
export function failWith(secret: string): FailFunction {
  return (message, details) => new JudgeClientError(redactSecret(message, secret), details);
}
