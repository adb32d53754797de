import { getAtPath } from 'yaml-diagnostics';
import type { z } from 'zod';

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'a boolean',
  object: 'an object',
  record: 'an object',
  array: 'an array',
};

/** One zod issue of a run report as `path: what is wrong`, e.g. `cases[0].passed: expected a boolean, got "yes"`. */
export function describeReportIssue(issue: z.core.$ZodIssue, data: unknown): string {
  const value = getAtPath(data, issue.path);
  return `${formatPath(issue.path)}: ${describeProblem(issue, value)}`;
}

function describeProblem(issue: z.core.$ZodIssue, value: unknown): string {
  switch (issue.code) {
    case 'invalid_type': {
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      return value === undefined
        ? `missing (expected ${expected})`
        : `expected ${expected}, got ${show(value)}`;
    }
    case 'invalid_value': {
      const allowed = issue.values.map((option) => JSON.stringify(option)).join(', ');
      return `expected ${issue.values.length === 1 ? '' : 'one of '}${allowed}, got ${show(value)}`;
    }
    case 'invalid_format':
      if (issue.format === 'datetime') {
        return `expected an ISO 8601 date-time such as "2026-01-31T12:00:00.000Z", got ${show(value)}`;
      }
      return `expected the ${issue.format} format, got ${show(value)}`;
    case 'too_small':
      return `expected ${issue.inclusive ? 'at least' : 'more than'} ${String(issue.minimum)}, got ${show(value)}`;
    case 'too_big':
      return `expected ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}, got ${show(value)}`;
    default:
      return issue.message;
  }
}

/** `cases[0].metrics[1].score`; `(root)` for the document itself. */
function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text === '' ? '(root)' : text;
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
