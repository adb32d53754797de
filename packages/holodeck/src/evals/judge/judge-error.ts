import { HoloDeckError } from '../../errors.js';

/** Why a judge call failed. */
export type JudgeErrorCode =
  /** No credentials in the environment: `variable` names what to set. */
  | 'credentials-missing'
  /** The API rejected the credentials (401/403). */
  | 'authentication'
  /** Any other HTTP error (after retries for 429/5xx). */
  | 'http'
  /** The API could not be reached, or did not answer in time (after retries). */
  | 'network'
  /** The answer had no `submit_verdict` tool call. */
  | 'no-verdict'
  /** The verdict was not valid JSON of the requested schema. */
  | 'invalid-verdict';

/** Structured details of a JudgeError. */
export interface JudgeErrorDetails {
  code: JudgeErrorCode;
  /** The HTTP status, for `authentication` and `http`. */
  status?: number;
  /** The environment variable to set or check, for `credentials-missing` and `authentication`. */
  variable?: string;
  cause?: unknown;
}

/**
 * The judge model could not give a usable verdict. The message says what went wrong and what to
 * do; it never contains a credential.
 */
export class JudgeError extends HoloDeckError {
  override name = 'JudgeError';
  readonly code: JudgeErrorCode;
  readonly status: number | undefined;
  readonly variable: string | undefined;

  constructor(message: string, details: JudgeErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = details.code;
    this.status = details.status;
    this.variable = details.variable;
  }
}
