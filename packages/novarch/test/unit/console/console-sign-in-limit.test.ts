import { afterEach, describe, expect, it } from 'vitest';
import type { ConsoleAppOptions } from '../../../src/console/index.js';
import { FailedAuthLimiter } from '../../../src/identity/failed-auth-limiter.js';
import { ORIGIN } from '../../console-support/console-client.js';
import { type ConsoleWorld, createConsoleWorld, OPERATORS } from '../../console-support/console-world.js';
import { serveConsole } from '../../e2e/console/serve-console.js';

// Failed sign-ins are limited per client address: past the limit the console answers 429 with
// Retry-After on its own error page, without looking at the token.

let world: ConsoleWorld;
afterEach(() => world?.close());

/** The message box of a page, unescaped. */
async function alertOf(response: Response): Promise<string | undefined> {
  const text = await response.text();
  const match = /<p class="message (?:error|notice)" role="(?:alert|status)">([^<]*)<\/p>/.exec(text);
  return match?.[1]?.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&amp;', '&');
}

/** A console whose verifier counts its calls, on a clock the test moves. */
async function limitedWorld(options: ConsoleAppOptions = {}) {
  const clock = { now: 1_000_000 };
  const verified: string[] = [];
  world = await createConsoleWorld({
    clock: () => clock.now,
    signInLimit: { maxFailures: 3, windowMs: 60_000 },
    ...options,
    deps: {
      verifyOperatorToken: async (token) => {
        verified.push(token);
        return OPERATORS[token];
      },
    },
  });
  return { clock, verified };
}

/** A sign-in post from a client at `address` (as `@hono/node-server` binds the connection; null: none). */
function signIn(
  token: string,
  address: string | null = '203.0.113.7',
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(
    world.app.request(
      '/console/sign-in',
      {
        method: 'POST',
        headers: { Origin: ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ token }).toString(),
      },
      address === null ? undefined : { incoming: { socket: { remoteAddress: address } } },
    ),
  );
}

describe('console sign-in limit', () => {
  it('answers 429 with Retry-After on the error page after N failures, without calling the verifier', async () => {
    const { clock, verified } = await limitedWorld();
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await signIn(`nvo_guess_${attempt}`)).status).toBe(401);
      clock.now += 5_000;
    }
    expect(verified).toEqual(['nvo_guess_0', 'nvo_guess_1', 'nvo_guess_2']);
    // Even the right token is refused now: nothing is verified while the address is limited.
    const refused = await signIn('nvo_ana_secret');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('45');
    expect(refused.headers.get('Set-Cookie')).toBeNull();
    expect(refused.headers.get('Content-Type')).toContain('text/html');
    const page = await refused.clone().text();
    expect(page).toContain('<title>Too Many Requests');
    expect(page).not.toContain('nvo_ana_secret');
    expect(await alertOf(refused)).toBe(
      'Too many failed sign-ins from your address: try again in 45 seconds.',
    );
    expect(verified).toHaveLength(3);

    // A JSON client gets the problem document.
    const json = await signIn('nvo_ana_secret', '203.0.113.7', { Accept: 'application/json' });
    expect(json.status).toBe(429);
    expect(json.headers.get('Content-Type')).toBe('application/problem+json');
    expect(json.headers.get('Retry-After')).toBe('45');
    expect(await json.json()).toEqual({
      type: 'about:blank',
      title: 'Too Many Requests',
      status: 429,
      detail: 'Too many failed sign-ins from your address: try again in 45 seconds.',
    });

    // Another address is not limited; the first again once its oldest failure is a window old.
    expect((await signIn('nvo_ana_secret', '203.0.113.8')).status).toBe(303);
    clock.now += 44_000;
    expect((await signIn('nvo_ana_secret')).headers.get('Retry-After')).toBe('1');
    clock.now += 1_000;
    const after = await signIn('nvo_ana_secret');
    expect(after.status).toBe(303);
    expect(after.headers.get('Set-Cookie')).toMatch(/^novarch_console=/);
    expect(verified).toEqual([
      'nvo_guess_0',
      'nvo_guess_1',
      'nvo_guess_2',
      'nvo_ana_secret',
      'nvo_ana_secret',
    ]);
  });

  it('does not count successful sign-ins or empty forms, and counts agent keys as failures', async () => {
    await limitedWorld();
    for (let attempt = 0; attempt < 5; attempt++) expect((await signIn('nvo_ana_secret')).status).toBe(303);
    for (let attempt = 0; attempt < 5; attempt++) expect((await signIn('   ')).status).toBe(400);
    expect((await signIn('nvo_nobody')).status).toBe(401);
    expect((await signIn('nva_abc_secret')).status).toBe(401);
    expect((await signIn('nvo_ana_secret')).status).toBe(303); // two failures so far: still allowed
    expect((await signIn('nvo_nobody')).status).toBe(401);
    expect((await signIn('nvo_ana_secret')).status).toBe(429);
  });

  it('does not trust X-Forwarded-For by default: a client cannot pick a fresh address per attempt', async () => {
    await limitedWorld();
    for (let attempt = 0; attempt < 3; attempt++)
      await signIn('nvo_nobody', '203.0.113.7', { 'X-Forwarded-For': `198.51.100.${attempt}` });
    const refused = await signIn('nvo_nobody', '203.0.113.7', { 'X-Forwarded-For': '198.51.100.99' });
    expect(refused.status).toBe(429);
  });

  it('with trustForwardedFor counts per address the proxy appended to X-Forwarded-For', async () => {
    await limitedWorld({ signInLimit: { maxFailures: 3, windowMs: 60_000, trustForwardedFor: true } });
    const viaProxy = (client: string, claimed = '1.1.1.1') =>
      signIn('nvo_nobody', '10.0.0.2', { 'X-Forwarded-For': `${claimed}, ${client}` });
    for (let attempt = 0; attempt < 3; attempt++) await viaProxy('198.51.100.5', `1.1.1.${attempt}`);
    expect((await viaProxy('198.51.100.5')).status).toBe(429);
    expect((await viaProxy('198.51.100.6')).status).toBe(401);
  });

  it('counts the clients an in-process app.request() cannot tell apart as one (no address known)', async () => {
    await limitedWorld();
    for (let attempt = 0; attempt < 3; attempt++) await signIn('nvo_nobody', null);
    expect((await signIn('nvo_ana_secret', null)).status).toBe(429);
    expect((await signIn('nvo_ana_secret', '203.0.113.7')).status).toBe(303);
  });

  it('shares a limiter passed in (e.g. with the API) and defaults to 10 failures per 5 minutes', async () => {
    const shared = new FailedAuthLimiter({ maxFailures: 2, windowMs: 60_000 });
    shared.recordFailure('203.0.113.7');
    shared.recordFailure('203.0.113.7');
    await limitedWorld({ signInLimit: shared });
    expect((await signIn('nvo_ana_secret')).status).toBe(429);
    await world.close();

    world = await createConsoleWorld();
    for (let attempt = 0; attempt < 10; attempt++) expect((await signIn('nvo_nobody')).status).toBe(401);
    const refused = await signIn('nvo_ana_secret');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(290);
    expect(Number(refused.headers.get('Retry-After'))).toBeLessThanOrEqual(300);
  });

  it('over a real connection counts the socket’s address (served by @hono/node-server)', async () => {
    await limitedWorld();
    const served = await serveConsole(world);
    try {
      const post = (token: string) =>
        fetch(`${served.url}/console/sign-in`, {
          method: 'POST',
          redirect: 'manual',
          headers: {
            Origin: served.url,
            'Content-Type': 'application/x-www-form-urlencoded',
            'X-Forwarded-For': '198.51.100.1',
          },
          body: new URLSearchParams({ token }).toString(),
        });
      for (let attempt = 0; attempt < 3; attempt++) expect((await post('nvo_nobody')).status).toBe(401);
      const refused = await post('nvo_ana_secret');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
      // Counted under 127.0.0.1, not under the address-less bucket of in-process requests.
      expect((await signIn('nvo_ana_secret', null)).status).toBe(303);
      expect((await signIn('nvo_ana_secret', '127.0.0.1')).status).toBe(429);
    } finally {
      await served.close();
    }
  });
});
