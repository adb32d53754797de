import { UsageError } from '../errors.js';

/** How long one model API request may take when `API_TIMEOUT_MS` is unset (the Claude CLI's own default is 10 minutes). */
export const DEFAULT_MODEL_REQUEST_TIMEOUT_MS = 120_000;

/**
 * The per-request model API deadline from the agent's environment: `API_TIMEOUT_MS`, the Claude
 * CLI's variable, which both backends honour (the Claude CLI reads it; the AI SDK backend bounds
 * each request with it), so one setting means the same on every provider.
 */
export function modelRequestTimeoutMs(env: Readonly<Record<string, string | undefined>>): number {
  const text = env.API_TIMEOUT_MS?.trim();
  if (text === undefined || text === '') return DEFAULT_MODEL_REQUEST_TIMEOUT_MS;
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new UsageError(
      'API_TIMEOUT_MS',
      `needs a whole number of milliseconds ≥ 1, got "${env.API_TIMEOUT_MS}"`,
      `unset it for the default of ${DEFAULT_MODEL_REQUEST_TIMEOUT_MS} (2 minutes)`,
    );
  return value;
}
