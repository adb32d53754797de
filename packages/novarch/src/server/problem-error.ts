import { NovarchError } from '../errors.js';

/** A field problem of a bad request: where (`body.context.recordId`) and what. */
export interface ProblemIssue {
  path: string;
  message: string;
  /** Where in a text body (a rules file) the problem is: 1-based line and column. */
  line?: number;
  column?: number;
  /** How to fix it. */
  hint?: string;
}

/**
 * An HTTP error the server answers as `application/problem+json`: routes throw it, and the one
 * error handler (`problem-response.ts`) writes it. `detail` says what to do.
 */
export class ProblemError extends NovarchError {
  override name = 'ProblemError';
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 503,
    readonly title: string,
    detail: string,
    readonly issues?: readonly ProblemIssue[],
  ) {
    super(detail);
  }
}

export function notFound(noun: string, id: string): ProblemError {
  // The same answer for an id that does not exist and one of another tenant: nothing leaks.
  return new ProblemError(404, 'Not Found', `no ${noun} "${id}" is visible to this credential`);
}
