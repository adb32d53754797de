import { isIPv4, isIPv6 } from 'node:net';
import { NovarchError } from '../errors.js';

/** How failed authentications are limited per client address (all optional). */
export interface FailedAuthLimitOptions {
  /** Failures an address may make within `windowMs` before it is refused (default 10). */
  maxFailures?: number;
  /** The sliding window failures are counted in, in ms (default 5 minutes). */
  windowMs?: number;
  /**
   * The most client addresses tracked at once (default 10 000). Past it the address whose last
   * failure is oldest is forgotten, so memory stays bounded (at most `maxClients × maxFailures`
   * timestamps) however many addresses an attacker sprays from.
   */
  maxClients?: number;
  /**
   * Take the client's address from the last entry of `X-Forwarded-For` (the one the proxy in
   * front of the server appended) instead of the connection's. Default `false`: the header is
   * the client's to write, so trusting it without a proxy lets anyone pick a fresh address for
   * every attempt. Set it only when every request reaches the server through one such proxy.
   */
  trustForwardedFor?: boolean;
}

/** Whether an address may try to authenticate now, and if not when it may again. */
export type FailedAuthCheck = { limited: false } | { limited: true; retryAfterSeconds: number };

/**
 * What the console's sign-in asks: `FailedAuthLimiter` (this process's memory), or one that counts
 * in the store, shared by every server of it (`SharedSignInLimiter`).
 */
export interface SignInLimiter {
  readonly trustForwardedFor: boolean;
  check(client: string): FailedAuthCheck | Promise<FailedAuthCheck>;
  recordFailure(client: string): void | Promise<void>;
}

/** The check of `limiter` for `times` (failure times, oldest first) at `now`: shared by both limiters. */
export function checkFailureTimes(
  limiter: { maxFailures: number; windowMs: number },
  times: readonly number[],
  now: number,
): FailedAuthCheck {
  if (times.length < limiter.maxFailures) return { limited: false };
  const oldest = times[times.length - limiter.maxFailures] ?? 0;
  return {
    limited: true,
    retryAfterSeconds: Math.max(1, Math.ceil((oldest + limiter.windowMs - now) / 1000)),
  };
}

export const DEFAULT_MAX_FAILURES = 10;
export const DEFAULT_FAILURE_WINDOW_MS = 5 * 60_000;
export const DEFAULT_MAX_CLIENTS = 10_000;

/**
 * Counts failed authentications per client address in this process's memory: after
 * `maxFailures` failures within `windowMs` the address is refused (the caller answers 429 with
 * `Retry-After`, without verifying anything) until its oldest failure of the window is
 * `windowMs` old. Successes are not counted and do not reset the count. IPv6 addresses are counted
 * per /64 (one host usually holds a whole /64), IPv4 ones per address.
 */
export class FailedAuthLimiter implements SignInLimiter {
  readonly maxFailures: number;
  readonly windowMs: number;
  readonly maxClients: number;
  readonly trustForwardedFor: boolean;
  /** Failure times of each address, oldest first (at most `maxFailures`); least recently failed first. */
  readonly #failures = new Map<string, number[]>();

  constructor(
    options: FailedAuthLimitOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.maxFailures = wholeAtLeastOne('maxFailures', options.maxFailures ?? DEFAULT_MAX_FAILURES);
    this.windowMs = wholeAtLeastOne('windowMs', options.windowMs ?? DEFAULT_FAILURE_WINDOW_MS);
    this.maxClients = wholeAtLeastOne('maxClients', options.maxClients ?? DEFAULT_MAX_CLIENTS);
    this.trustForwardedFor = options.trustForwardedFor ?? false;
  }

  /** How many addresses are tracked now (tests: the bound on memory). */
  get trackedClients(): number {
    return this.#failures.size;
  }

  check(client: string): FailedAuthCheck {
    const at = this.now();
    return checkFailureTimes(this, this.#recent(client, at) ?? [], at);
  }

  recordFailure(client: string): void {
    const at = this.now();
    const times = this.#recent(client, at) ?? [];
    times.push(at);
    if (times.length > this.maxFailures) times.splice(0, times.length - this.maxFailures);
    // Re-inserted: the map's order is least recently failed first, the one forgotten when full.
    this.#failures.delete(client);
    this.#failures.set(client, times);
    while (this.#failures.size > this.maxClients) {
      const first = this.#failures.keys().next();
      if (first.done) break;
      this.#failures.delete(first.value);
    }
  }

  /** The address's failures still in the window (dropping the entry when none are). */
  #recent(client: string, at: number): number[] | undefined {
    const times = this.#failures.get(client);
    if (times === undefined) return undefined;
    const start = times.findIndex((time) => at - time < this.windowMs);
    if (start === -1) {
      this.#failures.delete(client);
      return undefined;
    }
    if (start > 0) times.splice(0, start);
    return times;
  }
}

/** The limiter of these options, or the one given (a test may share one between apps). */
export function failedAuthLimiter(
  limit: FailedAuthLimitOptions | SignInLimiter | undefined,
  now?: () => number,
): SignInLimiter {
  return isSignInLimiter(limit) ? limit : new FailedAuthLimiter(limit, now);
}

function isSignInLimiter(value: FailedAuthLimitOptions | SignInLimiter | undefined): value is SignInLimiter {
  return value !== undefined && 'check' in value && typeof value.check === 'function';
}

/** What a request exposes of its client: Hono's context fits. */
export interface ClientRequest {
  env: unknown;
  req: { header(name: string): string | undefined };
}

/**
 * The key a request's failures are counted under: the connection's remote address (from
 * `@hono/node-server`'s bindings), or with `trustForwardedFor` the last `X-Forwarded-For` entry;
 * IPv6 cut to its /64. `unknown` when neither is known (an in-process `app.request()`).
 */
export function clientKeyOf(request: ClientRequest, trustForwardedFor: boolean): string {
  if (trustForwardedFor) {
    const forwarded = request.req.header('X-Forwarded-For')?.split(',').at(-1)?.trim();
    const key = forwarded === undefined ? undefined : addressKey(forwarded);
    if (key !== undefined) return key;
  }
  return addressKey(remoteAddressOf(request.env) ?? '') ?? 'unknown';
}

function remoteAddressOf(env: unknown): string | undefined {
  const bindings = record(record(env)?.server) ?? record(env);
  const address = record(record(bindings?.incoming)?.socket)?.remoteAddress;
  return typeof address === 'string' ? address : undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/** An IPv4 address as it is, an IPv6 one as its /64 (`2001:db8:0:1::/64`); undefined if neither. */
export function addressKey(address: string): string | undefined {
  const text = address.trim().replace(/^\[(.*)\]$/, '$1');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text)?.[1];
  if (mapped !== undefined && isIPv4(mapped)) return mapped;
  if (isIPv4(text)) return text;
  const bare = text.replace(/%.*$/, '');
  if (!isIPv6(bare)) return undefined;
  const groups = expandIPv6(bare);
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, lower-case hex without leading zeros. */
function expandIPv6(address: string): string[] {
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16).toString(16));
}

function wholeAtLeastOne(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new NovarchError(`${name} must be a whole number ≥ 1; got ${value}.`);
  return value;
}
