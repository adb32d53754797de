import { afterEach, describe, expect, it } from 'vitest';
import { safeNextPath } from '../../../src/console/next-path.js';
import { ConsoleClient } from '../../console-support/console-client.js';
import { type ConsoleWorld, createConsoleWorld } from '../../console-support/console-world.js';

// Issue 24: a hold link from a webhook, opened signed out, landed on Triage after sign-in.

let world: ConsoleWorld;
afterEach(() => world?.close());

describe('console sign-in returns to the page asked for', () => {
  it('a hold link opened signed out lands on that hold after sign-in', async () => {
    world = await createConsoleWorld();
    const { hold } = await world.refund({ tenantId: 'acme', amount: 900 });
    const link = `/console/holds/${hold?.id}`;
    const client = new ConsoleClient(world.app);
    const asked = await client.get(link);
    expect(asked.status).toBe(303);
    const signIn = asked.headers.get('Location') ?? '';
    expect(signIn).toBe(`/console/sign-in?next=${encodeURIComponent(link)}`);
    const form = await (await client.get(signIn)).text();
    expect(form).toContain(`<input type="hidden" name="next" value="${link}">`);
    const signedIn = await client.post(
      '/console/sign-in',
      { token: 'nvo_ana_secret', next: link },
      { csrf: false },
    );
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('Location')).toBe(link);
  });

  it('keeps next through a failed sign-in, and an expired session returns to its page too', async () => {
    let now = 1_000_000;
    world = await createConsoleWorld({ clock: () => now, session: { idleTimeoutMs: 60_000 } });
    const client = new ConsoleClient(world.app);
    const failed = await client.post(
      '/console/sign-in',
      { token: 'nvo_wrong', next: '/console/audit?tenant=acme' },
      { csrf: false },
    );
    expect(failed.status).toBe(401);
    expect(await failed.text()).toContain('name="next" value="/console/audit?tenant=acme"');
    await client.signIn('nvo_ana_secret');
    now += 61_000;
    const expired = await client.get('/console/sessions');
    expect(expired.headers.get('Location')).toBe('/console/sign-in?expired=1&next=%2Fconsole%2Fsessions');
  });

  it.each([
    'https://evil.example/console/x',
    '//evil.example',
    '/console//evil.example',
    '/console/../etc',
    '/consolex',
    '/console/sign-in',
    'javascript:alert(1)',
    '/console/holds/"><script>',
  ])('never sends the browser elsewhere: next=%s signs in to Triage', async (next) => {
    expect(safeNextPath(next)).toBeUndefined();
    world = await createConsoleWorld();
    const client = new ConsoleClient(world.app);
    const response = await client.post(
      '/console/sign-in',
      { token: 'nvo_ana_secret', next },
      { csrf: false },
    );
    expect(response.headers.get('Location')).toBe('/console');
  });
});
