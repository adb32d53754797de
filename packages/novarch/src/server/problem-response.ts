import type { Context } from 'hono';
import { ZodError } from 'zod';
import { DecisionError } from '../engine/decision-error.js';
import { NovarchError, OperationRefusedError, OperatorUsageError } from '../errors.js';
import { IdentityError } from '../identity/identity-error.js';
import { NovarchStoreError, UnknownRecordError, VerdictConflictError } from '../store/novarch-store-error.js';
import { notFound, ProblemError, type ProblemIssue } from './problem-error.js';

/** The problem document of an error (RFC 9457), without stacks or internals. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  issues?: ProblemIssue[];
  /** A write whose decision failed after it was recorded: its action, and whether its refusal is stored. */
  actionId?: string;
  refusalRecorded?: boolean;
}

/**
 * The one place errors become HTTP answers:
 * - ProblemError: its own status (400, 401, 403, 404, 409, 503);
 * - a request that does not match its schema (ZodError): 400 with every field problem;
 * - an operation refused (hold already decided, nothing waits on it, session already killed, the
 *   action already refused or run: `VerdictConflictError`): 409;
 * - a bad operator request (deny without rationale, a reserved name), a bad key or token: 400;
 * - an id the store does not know where the request puts it (another session's action): 404;
 * - the store failing: 503 (the agent's engine refuses the call: fail-closed);
 * - anything else: 500, with no detail (it is logged on the server's stderr).
 */
export function problemOf(error: unknown): Problem {
  // A decision that failed after its action was recorded answers as its cause does (503 for the store).
  if (error instanceof DecisionError)
    return { ...problemOf(error.cause), actionId: error.actionId, refusalRecorded: error.refusalRecorded };
  if (error instanceof ProblemError)
    return {
      type: 'about:blank',
      title: error.title,
      status: error.status,
      detail: error.message,
      ...(error.issues ? { issues: [...error.issues] } : {}),
    };
  if (error instanceof ZodError) {
    const issues = zodIssues(error, 'request');
    return {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '),
      issues,
    };
  }
  if (error instanceof OperationRefusedError || error instanceof VerdictConflictError)
    return { type: 'about:blank', title: 'Conflict', status: 409, detail: error.message };
  if (error instanceof UnknownRecordError)
    return {
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: notFound(error.noun, error.id).message,
    };
  if (error instanceof NovarchStoreError)
    return {
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail: `the store failed: ${error.message}`,
    };
  if (error instanceof OperatorUsageError || error instanceof IdentityError || error instanceof NovarchError)
    return { type: 'about:blank', title: 'Bad Request', status: 400, detail: error.message };
  return {
    type: 'about:blank',
    title: 'Internal Server Error',
    status: 500,
    detail: 'the server failed; see its log',
  };
}

/** A ZodError's issues, with paths written from `root` (`body.context.recordId`). */
export function zodIssues(error: ZodError, root: string): ProblemIssue[] {
  return error.issues.map((issue) => ({
    path: [root, ...issue.path.map(String)].join('.'),
    message:
      issue.code === 'unrecognized_keys'
        ? `unknown ${issue.keys.length === 1 ? 'key' : 'keys'} ${issue.keys.map((key) => `"${key}"`).join(', ')}`
        : issue.message,
  }));
}

/** Writes a problem as `application/problem+json`. */
export function problemResponse(context: Context, problem: Problem): Response {
  return context.body(JSON.stringify(problem), {
    status: problemStatus(problem.status),
    headers: problemHeaders(problem),
  });
}

/** The same, outside a request's context (the server refusing requests while it shuts down). */
export function problemAsResponse(problem: Problem): Response {
  return new Response(JSON.stringify(problem), {
    status: problemStatus(problem.status),
    headers: problemHeaders(problem),
  });
}

function problemHeaders(problem: Problem): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/problem+json' };
  if (problem.status === 401) headers['www-authenticate'] = 'Bearer realm="novarch"';
  return headers;
}

function problemStatus(status: number): 400 | 401 | 403 | 404 | 409 | 413 | 500 | 503 {
  switch (status) {
    case 400:
    case 401:
    case 403:
    case 404:
    case 409:
    case 413:
    case 503:
      return status;
    default:
      return 500;
  }
}
