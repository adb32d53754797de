import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_RETRY_POLICY, retryDelayMs, shouldRetry } from '../../src/retry-policy.js';

const policy = { ...DEFAULT_RETRY_POLICY, retryDelayMs: 1_000, maxRetryDelayMs: 10_000 };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('retry policy', () => {
  it('has the defaults HoloDeck relies on', () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({
      timeoutMs: 60_000,
      maxRetries: 2,
      retryDelayMs: 500,
      maxRetryDelayMs: 60_000,
    });
  });

  it('backs off exponentially with up to 25% jitter, capped', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect([0, 1, 2, 3, 4].map((attempt) => retryDelayMs(policy, attempt))).toEqual([
      1_000, 2_000, 4_000, 8_000, 10_000,
    ]);
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    expect(retryDelayMs(policy, 0)).toBe(750);
  });

  it('takes retry-after-ms, then retry-after in seconds or as an HTTP date, capped', () => {
    expect(retryDelayMs(policy, 0, new Headers({ 'retry-after-ms': '120', 'retry-after': '5' }))).toBe(120);
    expect(retryDelayMs(policy, 0, new Headers({ 'retry-after': '2.5' }))).toBe(2_500);
    expect(retryDelayMs(policy, 0, new Headers({ 'retry-after': '600' }))).toBe(10_000);
    const inThreeSeconds = new Date(Date.now() + 3_000).toUTCString();
    const fromDate = retryDelayMs(policy, 0, new Headers({ 'retry-after': inThreeSeconds }));
    expect(fromDate).toBeGreaterThan(1_000);
    expect(fromDate).toBeLessThanOrEqual(3_000);
    expect(retryDelayMs(policy, 0, new Headers({ 'retry-after': new Date(0).toUTCString() }))).toBe(0);
  });

  it('falls back to the backoff when the header is unreadable', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(retryDelayMs(policy, 1, new Headers({ 'retry-after': 'soon', 'retry-after-ms': '-3' }))).toBe(
      2_000,
    );
  });

  it('retries 429 and 5xx unless x-should-retry says otherwise', () => {
    const none = new Headers();
    expect([408, 409, 429, 500, 503, 529, 400, 401, 404].map((status) => shouldRetry(status, none))).toEqual([
      false,
      false,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(shouldRetry(500, new Headers({ 'x-should-retry': 'false' }))).toBe(false);
    expect(shouldRetry(409, new Headers({ 'x-should-retry': 'true' }))).toBe(true);
  });
});
