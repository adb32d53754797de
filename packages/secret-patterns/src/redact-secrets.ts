import { SECRET_PATTERNS } from './secret-patterns.js';

/** What a redacted secret is replaced with, in Novarch's store and in HoloDeck's saved runs. */
export const REDACTED = '[redacted]';

/** The expressions of `SECRET_PATTERNS`, in order. */
export const DEFAULT_SECRET_REGEXPS: readonly RegExp[] = Object.freeze(
  SECRET_PATTERNS.map((entry) => entry.pattern),
);

/**
 * `text` with every match of `patterns` (by default every shape of `SECRET_PATTERNS`) replaced by
 * `[redacted]`. Each pattern must be global.
 */
export function redactSecrets(
  text: string,
  patterns: readonly RegExp[] = DEFAULT_SECRET_REGEXPS,
  replacement: string = REDACTED,
): string {
  let result = text;
  for (const pattern of patterns) result = result.replace(pattern, replacement);
  return result;
}
