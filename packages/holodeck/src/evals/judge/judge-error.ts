import type { JudgeClientErrorCode } from 'judge-client';
import { HoloDeckError } from '../../errors.js';

/**
 * Why a judge call failed: the codes of judge-client (`credentials`, `configuration`,
 * `authentication`, `http`, `network`, `timeout`, `invalid-answer`, `aborted`).
 */
export type JudgeErrorCode = JudgeClientErrorCode;

/** Structured details of a JudgeError. */
export interface JudgeErrorDetails {
  code: JudgeErrorCode;
  /** The HTTP status, for `authentication` and `http`. */
  status?: number;
  /** The environment variable (or agent.yaml field) to set or check, for `credentials` and `authentication`. */
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
