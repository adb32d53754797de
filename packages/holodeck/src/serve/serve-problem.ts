import type { Context } from 'hono';
import { ZodError } from 'zod';
import { HoloDeckError } from '../errors.js';

/** A field problem of a bad request: where (`body.message`) and what. */
export interface ProblemIssue {
  path: string;
  message: string;
}

/** An RFC 9457 problem document, as every error of `holodeck serve` is answered. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  issues?: ProblemIssue[];
  /** The instance that holds a session (421). */
  instance?: string;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  421: 'Misdirected Request',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
  500: 'Internal Server Error',
};

/**
 * An HTTP error of the serve layer: routes throw it, and the one error handler writes it as
 * `application/problem+json`. `detail` says what was wrong and how to fix it.
 */
export class ServeProblem extends HoloDeckError {
  override name = 'ServeProblem';
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 421 | 429 | 503,
    detail: string,
    readonly extra: { issues?: ProblemIssue[]; retryAfterSeconds?: number; instance?: string } = {},
  ) {
    super(detail);
  }
}

/** The problem document of an error, without stacks or internals (a 500 says only "see the log"). */
export function problemOf(error: unknown): Problem {
  if (error instanceof ServeProblem)
    return {
      type: 'about:blank',
      title: TITLES[error.status] ?? 'Error',
      status: error.status,
      detail: error.message,
      ...(error.extra.issues ? { issues: error.extra.issues } : {}),
      ...(error.extra.instance ? { instance: error.extra.instance } : {}),
    };
  if (error instanceof ZodError) {
    const issues = zodIssues(error, 'body');
    return {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '),
      issues,
    };
  }
  return {
    type: 'about:blank',
    title: TITLES[500] ?? 'Error',
    status: 500,
    detail: 'the server failed; see its log',
  };
}

/** A ZodError's issues, with paths written from `root` (`body.input.0.content`). */
export function zodIssues(error: ZodError, root: string): ProblemIssue[] {
  return error.issues.map((issue) => ({
    path: [root, ...issue.path.map(String)].join('.'),
    message:
      issue.code === 'unrecognized_keys'
        ? `unknown ${issue.keys.length === 1 ? 'key' : 'keys'} ${issue.keys.map((key) => `"${key}"`).join(', ')}`
        : issue.message,
  }));
}

/** Writes a problem as `application/problem+json` (with Retry-After / WWW-Authenticate where due). */
export function problemResponse(problem: Problem, error?: unknown): Response {
  const headers: Record<string, string> = { 'content-type': 'application/problem+json' };
  if (problem.status === 401) headers['www-authenticate'] = 'Bearer realm="holodeck"';
  if (error instanceof ServeProblem && error.extra.retryAfterSeconds !== undefined)
    headers['retry-after'] = String(error.extra.retryAfterSeconds);
  return new Response(JSON.stringify(problem), { status: problem.status, headers });
}

/** The problem response of an error, for Hono's `onError`. */
export function errorResponse(_context: Context, error: unknown): Response {
  return problemResponse(problemOf(error), error);
}
