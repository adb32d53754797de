import type { z } from 'zod';

/** Zod issues as one line: `path: message; path: message` (`(body)` for the root). */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`).join('; ');
}
