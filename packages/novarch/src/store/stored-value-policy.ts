import { DEFAULT_SECRET_REGEXPS, redactSecrets } from 'secret-patterns';
import { NovarchStoreError } from './novarch-store-error.js';

/** What the store keeps of a tool's input and output (`openSqliteStore` options). */
export interface StoredValueOptions {
  /**
   * Patterns whose matches are replaced by `[redacted]` in every string of a tool's input and
   * output (and a write's reasoning) before storage, in addition to `DEFAULT_REDACTIONS` (unless
   * `replaceDefaultRedactions`). A pattern without the `g` flag is applied as if it had it.
   */
  redact?: readonly (RegExp | string)[];
  /** Use only `redact`, not the defaults. */
  replaceDefaultRedactions?: boolean;
  /**
   * The most a stored tool input or output may take, in bytes of JSON (default 65536). A larger
   * value is stored as `{ novarchTruncated: { bytes, preview } }`: a rule that reads into it
   * fails to evaluate and counts as violated (fail-closed); `holds show` shows the marker.
   */
  maxStoredBytes?: number;
}

/**
 * Common shapes of secrets (the `secret-patterns` package, shared with HoloDeck): Novarch's own
 * credentials, API keys, passwords in URLs, bearer tokens, JWTs and PEM private keys.
 */
export const DEFAULT_REDACTIONS: readonly RegExp[] = DEFAULT_SECRET_REGEXPS;
export const DEFAULT_MAX_STORED_BYTES = 65_536;
const PREVIEW_CHARS = 1_024;

/** Prepares a tool's input or output for storage: redacted, then bounded. */
export type StoredValuePolicy = (value: unknown) => unknown;

export function storedValuePolicy(options: StoredValueOptions = {}): StoredValuePolicy {
  const maxBytes = options.maxStoredBytes ?? DEFAULT_MAX_STORED_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < PREVIEW_CHARS) {
    throw new NovarchStoreError(
      `maxStoredBytes must be a whole number of at least ${PREVIEW_CHARS}; got ${String(maxBytes)}.`,
    );
  }
  const configured = (options.redact ?? []).map((pattern) => toGlobal(pattern));
  const patterns = options.replaceDefaultRedactions ? configured : [...DEFAULT_REDACTIONS, ...configured];
  const redactText = (text: string) => redactSecrets(text, patterns);
  return (value) => {
    const redacted = redactValue(value, redactText);
    let text: string | undefined;
    try {
      text = JSON.stringify(redacted);
    } catch {
      return redacted; // not JSON: the store refuses it, saying so (`toJsonColumn`)
    }
    if (text === undefined) return redacted;
    const bytes = Buffer.byteLength(text);
    if (bytes <= maxBytes) return redacted;
    return { novarchTruncated: { bytes, limit: maxBytes, preview: text.slice(0, PREVIEW_CHARS) } };
  };
}

function toGlobal(pattern: RegExp | string): RegExp {
  try {
    if (typeof pattern === 'string') return new RegExp(pattern, 'g');
    return pattern.global ? pattern : new RegExp(pattern.source, `${pattern.flags}g`);
  } catch (error) {
    throw new NovarchStoreError(`Redaction pattern ${String(pattern)} is not a valid regular expression.`, {
      cause: error,
    });
  }
}

/** A copy of `value` with every string (keys included) redacted; JSON-like values only. */
function redactValue(value: unknown, redact: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return redact(value);
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact, depth + 1));
  if ('toJSON' in value && typeof value.toJSON === 'function') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [redact(key), redactValue(inner, redact, depth + 1)]),
  );
}

/** Redacts one text (a write's reasoning) with the same patterns. */
export function redactTextWith(policy: StoredValuePolicy, text: string): string {
  const result = policy(text);
  return typeof result === 'string' ? result : text.slice(0, PREVIEW_CHARS);
}
