import { APICallError, RetryError } from 'ai';

/** What a message about a failed run needs to know of the credentials. */
export interface ErrorContext {
  /** What to check on 401/403, e.g. `check OPENAI_API_KEY`. */
  credentialHint: string;
  /** Values that must never appear in a message (the API key). */
  secrets: readonly string[];
}

/** Replaces every secret in `text`, so no message can leak one (an API may echo the key back). */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  return secrets.reduce(
    (redacted, secret) => (secret ? redacted.split(secret).join('[redacted]') : redacted),
    text,
  );
}

function describeApiCall(error: APICallError, context: ErrorContext): string {
  const status = error.statusCode;
  if (status === 401 || status === 403) {
    return `authentication failed (HTTP ${status}): ${context.credentialHint}. ${error.message}`;
  }
  if (status !== undefined) return `the model API answered HTTP ${status}: ${error.message}`;
  return error.message;
}

function describeError(error: unknown, context: ErrorContext): string {
  if (RetryError.isInstance(error)) {
    const last = describeError(error.lastError, context);
    return error.reason === 'maxRetriesExceeded'
      ? `the model API failed ${error.errors.length} times in a row: ${last}`
      : last;
  }
  if (APICallError.isInstance(error)) return describeApiCall(error, context);
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * The `error_reason` of a run the AI SDK ended with an error: the HTTP status and the API's own
 * message; after retries, how many attempts failed; on 401/403, which credential to check. Never
 * contains the key itself.
 */
export function describeRunError(error: unknown, context: ErrorContext): string {
  return redactSecrets(describeError(error, context), context.secrets);
}
