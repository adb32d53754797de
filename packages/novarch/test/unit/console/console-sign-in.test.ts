import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleClient, jsonOf, ORIGIN } from '../../console-support/console-client.js';
import { type ConsoleWorld, createConsoleWorld } from '../../console-support/console-world.js';

let world: ConsoleWorld;
afterEach(() => world?.close());

/** The message box of a page, unescaped. */
async function alertOf(response: Response): Promise<string | undefined> {
  const text = await response.text();
  const match = /<p class="message (?:error|notice)" role="(?:alert|status)">([^<]*)<\/p>/.exec(text);
  return match?.[1]?.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&amp;', '&');
}

describe('console sign-in', () => {
  it('signs in with an operator token: an opaque HttpOnly SameSite=Strict cookie on /console, never the token', async () => {
    world = await createConsoleWorld();
    const client = new ConsoleClient(world.app);
    const response = await client.signIn('nvo_ana_secret');
    expect(response.status).toBe(303);
    expect(response.headers.get('Location')).toBe('/console');
    const cookie = response.headers.get('Set-Cookie') ?? '';
    expect(cookie).toMatch(/^novarch_console=[A-Za-z0-9_-]{43}; Path=\/console; HttpOnly; SameSite=Strict$/);
    expect(cookie).not.toContain('nvo_');
    const page = await client.get('/console');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Signed in as <strong>ana</strong> (operator)');
    expect(html).not.toContain('nvo_ana_secret');
  });

  it('sets Secure on the cookie when the console is reached over https', async () => {
    world = await createConsoleWorld({ publicOrigin: 'https://novarch.example.com' });
    const response = await world.app.request('/console/sign-in', {
      method: 'POST',
      headers: { Origin: 'https://novarch.example.com', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'token=nvo_ana_secret',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('Set-Cookie')).toContain('; Secure');
  });

  it.each([
    ['an empty token', '', 400, 'Enter your operator token.'],
    ['blanks', '   ', 400, 'Enter your operator token.'],
    [
      'an agent key',
      'nva_abc_secret',
      401,
      'That is an agent key (nva_…): agents cannot sign in. Sign in with an operator token (nvo_…).',
    ],
    [
      'an unknown token',
      'nvo_nobody_secret',
      401,
      'Sign-in failed: the operator token is unknown or revoked.',
    ],
    [
      'a huge token',
      `nvo_${'x'.repeat(5000)}`,
      401,
      'Sign-in failed: the operator token is unknown or revoked.',
    ],
  ])(
    'refuses %s with its message, sets no cookie and never echoes the token',
    async (_what, token, status, message) => {
      world = await createConsoleWorld();
      const response = await new ConsoleClient(world.app).post(
        '/console/sign-in',
        { token },
        { csrf: false },
      );
      expect(response.status).toBe(status);
      expect(response.headers.get('Set-Cookie')).toBeNull();
      const body = await response.clone().text();
      if (token.trim() !== '') expect(body).not.toContain(token);
      expect(await alertOf(response)).toBe(message);
    },
  );

  it('refuses a revoked token at sign-in, and ends its open console sessions at the next request', async () => {
    world = await createConsoleWorld();
    const client = new ConsoleClient(world.app);
    await client.signIn('nvo_ana_secret');
    world.revoked.add('op_ana');
    const page = await client.get('/console');
    expect(page.status).toBe(303);
    expect(page.headers.get('Location')).toBe('/console/sign-in?revoked=1');
    expect(await alertOf(await client.get('/console/sign-in?revoked=1'))).toBe(
      'You were signed out: your operator token is no longer valid.',
    );
    const again = await new ConsoleClient(world.app).signIn('nvo_ana_secret');
    expect(again.status).toBe(401);
  });

  it('signs out: the session id stops working', async () => {
    world = await createConsoleWorld();
    const client = new ConsoleClient(world.app);
    await client.signIn('nvo_ana_secret');
    const out = await client.post('/console/sign-out', {});
    expect(out.status).toBe(303);
    expect(out.headers.get('Location')).toBe('/console/sign-in?signed-out=1');
    expect(out.headers.get('Set-Cookie')).toMatch(/^novarch_console=; Max-Age=0; Path=\/console/);
    const after = await client.get('/console', { Accept: 'application/json' });
    expect(after.status).toBe(401);
    expect(await jsonOf(after)).toMatchObject({
      status: 401,
      detail: 'Not signed in: sign in to the console with your operator token.',
    });
  });

  it('expires an idle session and says so', async () => {
    let now = 1_000_000;
    world = await createConsoleWorld({ clock: () => now, session: { idleTimeoutMs: 60_000 } });
    const client = new ConsoleClient(world.app);
    await client.signIn('nvo_ana_secret');
    now += 59_000;
    expect((await client.get('/console')).status).toBe(200);
    now += 61_000;
    const page = await client.get('/console');
    expect(page.headers.get('Location')).toBe('/console/sign-in?expired=1');
    expect(await alertOf(await client.get('/console/sign-in?expired=1'))).toBe(
      'Your console session expired: sign in again.',
    );
  });

  it('ends a session at its absolute lifetime however active it is', async () => {
    let now = 1_000_000;
    world = await createConsoleWorld({
      clock: () => now,
      session: { idleTimeoutMs: 60_000, absoluteTimeoutMs: 150_000 },
    });
    const client = new ConsoleClient(world.app);
    await client.signIn('nvo_ana_secret');
    for (let step = 0; step < 3; step++) {
      now += 50_000;
      expect((await client.get('/console')).status).toBe(200);
    }
    now += 1_000;
    const response = await client.get('/console', { Accept: 'application/json' });
    expect(response.status).toBe(401);
    expect((await jsonOf(response)).detail).toBe('Your console session expired: sign in again.');
  });

  it('redirects pages to sign-in and answers 401 to everything else without a session', async () => {
    world = await createConsoleWorld();
    const page = await world.app.request('/console/sessions');
    expect(page.status).toBe(303);
    expect(page.headers.get('Location')).toBe('/console/sign-in?next=%2Fconsole%2Fsessions');
    const forged = await world.app.request('/console/sessions', {
      headers: { Cookie: 'novarch_console=made-up' },
    });
    expect(forged.status).toBe(303);
    const post = await new ConsoleClient(world.app).post('/console/sessions/ses_x/kill', { reason: 'x' });
    expect(post.status).toBe(401);
    const events = await world.app.request('/console/events');
    expect(events.status).toBe(401);
  });

  it('refuses a sign-in posted from another site (login CSRF)', async () => {
    world = await createConsoleWorld();
    const client = new ConsoleClient(world.app);
    const response = await client.post(
      '/console/sign-in',
      { token: 'nvo_ana_secret' },
      { csrf: false, origin: 'https://evil.example' },
    );
    expect(response.status).toBe(403);
    expect(response.headers.get('Set-Cookie')).toBeNull();
    expect(await alertOf(response)).toBe(
      "Refused: the request comes from another site. State changes are accepted only from the console's own pages.",
    );
    expect(ORIGIN).toBe('http://localhost');
  });
});
