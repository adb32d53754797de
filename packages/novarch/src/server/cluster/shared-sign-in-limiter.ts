import { ConsoleRequestError } from '../../console/console-errors.js';
import {
  checkFailureTimes,
  DEFAULT_FAILURE_WINDOW_MS,
  DEFAULT_MAX_FAILURES,
  type FailedAuthCheck,
  type SignInLimiter,
} from '../../identity/failed-auth-limiter.js';
import type { ClusterStore } from '../../store/cluster-store.js';

/** Answered when the failures cannot be read or counted: the sign-in is refused (fail-closed). */
export const SIGN_IN_LIMIT_UNAVAILABLE =
  'Sign-in is unavailable: the store that counts failed sign-ins cannot be reached. Try again in a moment.';

/**
 * The console's sign-in limiter for servers sharing one PostgreSQL: failures are rows of
 * `auth_failures`, so N servers still allow `maxFailures` per address and window in all (an
 * in-memory limiter per process would allow N times as many). Same rules as `FailedAuthLimiter`
 * (per address, IPv6 per /64, sliding window, only failures count), on PostgreSQL's clock.
 */
export class SharedSignInLimiter implements SignInLimiter {
  readonly maxFailures = DEFAULT_MAX_FAILURES;
  readonly windowMs = DEFAULT_FAILURE_WINDOW_MS;
  readonly trustForwardedFor = false;
  #lastPrune = 0;

  constructor(private readonly cluster: ClusterStore) {}

  async check(client: string): Promise<FailedAuthCheck> {
    try {
      const { times, now } = await this.cluster.recentFailures(client, this.windowMs);
      return checkFailureTimes(this, times, now);
    } catch {
      throw new ConsoleRequestError(503, SIGN_IN_LIMIT_UNAVAILABLE);
    }
  }

  async recordFailure(client: string): Promise<void> {
    try {
      await this.cluster.recordFailure(client, this.windowMs);
      if (Date.now() - this.#lastPrune > this.windowMs) {
        this.#lastPrune = Date.now();
        await this.cluster.pruneFailures(this.windowMs);
      }
    } catch {
      throw new ConsoleRequestError(503, SIGN_IN_LIMIT_UNAVAILABLE);
    }
  }
}
