import { describe, expect, it } from 'vitest';
import {
  addressKey,
  clientKeyOf,
  DEFAULT_FAILURE_WINDOW_MS,
  DEFAULT_MAX_CLIENTS,
  DEFAULT_MAX_FAILURES,
  FailedAuthLimiter,
} from '../../../src/identity/failed-auth-limiter.js';

/** A request as `@hono/node-server` binds it: the socket's address, and headers. */
function request(remoteAddress: string | undefined, headers: Record<string, string> = {}) {
  return {
    env: remoteAddress === undefined ? undefined : { incoming: { socket: { remoteAddress } } },
    req: { header: (name: string) => headers[name] ?? headers[name.toLowerCase()] },
  };
}

describe('FailedAuthLimiter', () => {
  it('defaults to 10 failures per 5 minutes per address, 10 000 addresses tracked, X-Forwarded-For not trusted', () => {
    const limiter = new FailedAuthLimiter();
    expect([limiter.maxFailures, limiter.windowMs, limiter.maxClients, limiter.trustForwardedFor]).toEqual([
      10,
      300_000,
      10_000,
      false,
    ]);
    expect([DEFAULT_MAX_FAILURES, DEFAULT_FAILURE_WINDOW_MS, DEFAULT_MAX_CLIENTS]).toEqual([
      10, 300_000, 10_000,
    ]);
  });

  it('refuses an address after N failures in the window until its oldest failure leaves the window', () => {
    let now = 1_000_000;
    const limiter = new FailedAuthLimiter({ maxFailures: 3, windowMs: 60_000 }, () => now);
    limiter.recordFailure('203.0.113.7');
    now += 10_000;
    limiter.recordFailure('203.0.113.7');
    expect(limiter.check('203.0.113.7')).toEqual({ limited: false });
    now += 10_000;
    limiter.recordFailure('203.0.113.7');
    expect(limiter.check('203.0.113.7')).toEqual({ limited: true, retryAfterSeconds: 40 });
    expect(limiter.check('203.0.113.8')).toEqual({ limited: false });
    now += 39_500;
    expect(limiter.check('203.0.113.7')).toEqual({ limited: true, retryAfterSeconds: 1 });
    now += 500; // the first failure is 60 s old: one more attempt
    expect(limiter.check('203.0.113.7')).toEqual({ limited: false });
    limiter.recordFailure('203.0.113.7');
    expect(limiter.check('203.0.113.7')).toEqual({ limited: true, retryAfterSeconds: 10 });
    now += 60_000;
    expect(limiter.check('203.0.113.7')).toEqual({ limited: false });
    expect(limiter.trackedClients).toBe(0); // an address with no failure in the window is forgotten
  });

  it('keeps memory bounded however many addresses fail: the least recently failing are forgotten', () => {
    const limiter = new FailedAuthLimiter({ maxFailures: 2, maxClients: 100 });
    limiter.recordFailure('198.51.100.1');
    limiter.recordFailure('198.51.100.1');
    for (let index = 0; index < 50_000; index++) {
      limiter.recordFailure(`10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`);
      if (index % 1000 === 0) expect(limiter.trackedClients).toBeLessThanOrEqual(100);
      // An address that keeps failing stays tracked (and limited) while others are sprayed.
      if (index % 50 === 0) limiter.recordFailure('198.51.100.1');
    }
    expect(limiter.trackedClients).toBe(100);
    expect(limiter.check('198.51.100.1').limited).toBe(true);
    expect(limiter.check('10.0.0.0').limited).toBe(false);
  });

  it('refuses options that are not whole numbers ≥ 1', () => {
    expect(() => new FailedAuthLimiter({ maxFailures: 0 })).toThrow(
      'maxFailures must be a whole number ≥ 1; got 0.',
    );
    expect(() => new FailedAuthLimiter({ windowMs: 1.5 })).toThrow(
      'windowMs must be a whole number ≥ 1; got 1.5.',
    );
    expect(() => new FailedAuthLimiter({ maxClients: -1 })).toThrow(
      'maxClients must be a whole number ≥ 1; got -1.',
    );
  });
});

describe('client addresses', () => {
  it('counts IPv4 per address and IPv6 per /64; IPv4-mapped IPv6 as IPv4', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:DB8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('[2001:db8:1:2::9]')).toBe('2001:db8:1:2::/64');
    expect(addressKey('64:ff9b::203.0.113.7')).toBe('64:ff9b:0:0::/64');
    expect(addressKey('not an address')).toBeUndefined();
    expect(addressKey('')).toBeUndefined();
  });

  it('takes the connection’s address and ignores X-Forwarded-For unless told to trust it', () => {
    const spoofed = request('198.51.100.20', { 'X-Forwarded-For': '1.2.3.4' });
    expect(clientKeyOf(spoofed, false)).toBe('198.51.100.20');
    expect(clientKeyOf(request(undefined), false)).toBe('unknown');
    // Trusted: the last entry, the one the proxy in front appended (a client writes the first ones).
    const proxied = request('10.0.0.2', { 'X-Forwarded-For': '1.2.3.4, 203.0.113.9' });
    expect(clientKeyOf(proxied, true)).toBe('203.0.113.9');
    expect(clientKeyOf(request('10.0.0.2', { 'X-Forwarded-For': 'garbage' }), true)).toBe('10.0.0.2');
    expect(clientKeyOf(request('10.0.0.2'), true)).toBe('10.0.0.2');
    // `@hono/node-server` nests its bindings under `server` when the app runs in another's env.
    expect(
      clientKeyOf(
        {
          ...request(undefined),
          env: { server: { incoming: { socket: { remoteAddress: '::ffff:10.1.1.1' } } } },
        },
        false,
      ),
    ).toBe('10.1.1.1');
  });
});
