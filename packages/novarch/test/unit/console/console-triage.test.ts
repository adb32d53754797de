import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleClient, jsonOf } from '../../console-support/console-client.js';
import { type ConsoleWorld, createConsoleWorld, HOSTILE } from '../../console-support/console-world.js';

let world: ConsoleWorld;
const json = { headers: { Accept: 'application/json' } };
afterEach(() => world?.close());

async function signedIn(token = 'nvo_ana_secret'): Promise<ConsoleClient> {
  const client = new ConsoleClient(world.app);
  await client.signIn(token);
  return client;
}

describe('console triage queue', () => {
  it('shows a pending hold with its context, the agent rationale marked and escaped, rules and evidence cited', async () => {
    world = await createConsoleWorld();
    const { hold, evidence } = await world.holdCitingEvidence({
      tenantId: 'acme',
      reasoning: HOSTILE,
      recordId: `C1${HOSTILE}`,
    });
    const client = await signedIn();
    const response = await client.get('/console');
    const html = await response.text();
    expect(html).toContain(`id="hold-${hold?.id}"`);
    expect(html).toContain(
      `Agent's rationale <span class="badge agent">supplied by the agent, unverified</span>`,
    );
    expect(html).toContain(
      '<blockquote class="agent-text">&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;&lt;script&gt;window.__pwned=2&lt;/script&gt;</blockquote>',
    );
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>window');
    expect(html).toContain('<dd class="agent-text">C1&lt;img src=x');
    expect(html).toContain('<code class="rule">TEAM-9</code>');
    expect(html).toContain('<p>the lookup shows a gold plan</p>');
    expect(html).toContain('<details class="evidence"><summary>Evidence cited (1)</summary>');
    expect(html).toContain(`<span class="muted">${evidence.id}</span>`);
    expect(html).toContain(`data-deadline="${hold?.deadline}"`);
    expect(html).toContain("Session's recent calls (2)");
  });

  it('sends a strict CSP and the other security headers on every page and asset', async () => {
    world = await createConsoleWorld();
    const client = await signedIn();
    for (const path of ['/console', '/console/sign-in', '/console/assets/console.js', '/console/nowhere']) {
      const response = await client.get(path);
      const csp = response.headers.get('Content-Security-Policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
      expect(response.headers.get('X-Frame-Options')).toBe('DENY');
    }
    const html = await (await client.get('/console')).text();
    // No inline script or style anywhere: the one script is an asset.
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script type="module" src="/console/assets/console.js">']);
    expect(html).not.toMatch(/ style=|<style| on[a-z]+=/);
  });

  it('approves a hold as the signed-in operator (the name from the token, never from the form)', async () => {
    world = await createConsoleWorld();
    const { hold } = await world.refund({ tenantId: 'acme', amount: 900 });
    const client = await signedIn();
    const response = await client.post(
      `/console/holds/${hold?.id}/decision`,
      { decision: 'approve', rationale: 'checked with finance', decidedBy: 'mallory', operator: 'mallory' },
      { headers: { Accept: 'application/json' } },
    );
    expect(response.status).toBe(200);
    const body = await jsonOf(response);
    expect(body).toMatchObject({ outcome: 'decided', hold: { status: 'approved', decidedBy: 'ana' } });
    expect(body.text).toMatch(/^Approved by ana at .+: checked with finance\.$/);
    expect(await world.store.getHold(hold?.id ?? '')).toMatchObject({ status: 'approved', decidedBy: 'ana' });
  });

  it('refuses a deny without a rationale with its message, and stores nothing', async () => {
    world = await createConsoleWorld();
    const { hold } = await world.refund({ tenantId: 'acme', amount: 900 });
    const client = await signedIn();
    const response = await client.post(
      `/console/holds/${hold?.id}/decision`,
      { decision: 'deny', rationale: '  ' },
      { headers: { Accept: 'application/json' } },
    );
    expect(response.status).toBe(400);
    expect((await jsonOf(response)).detail).toBe(
      'A deny needs a rationale: the agent is told why its action was refused.',
    );
    expect((await world.store.getHold(hold?.id ?? ''))?.status).toBe('pending');
  });

  it('refuses an unknown decision with its message', async () => {
    world = await createConsoleWorld();
    const { hold } = await world.refund({ tenantId: 'acme', amount: 900 });
    const client = await signedIn();
    const response = await client.post(
      `/console/holds/${hold?.id}/decision`,
      { decision: 'maybe' },
      { headers: { Accept: 'application/json' } },
    );
    expect(response.status).toBe(400);
    expect((await jsonOf(response)).detail).toBe('decision: expected approve, deny or skip');
  });

  it('first decision wins: the second operator gets 409 with the winner and their rationale', async () => {
    world = await createConsoleWorld();
    const { hold } = await world.refund({ tenantId: 'acme', amount: 900 });
    const ana = await signedIn('nvo_ana_secret');
    const bob = await signedIn('nvo_bob_secret');
    const first = await ana.post(
      `/console/holds/${hold?.id}/decision`,
      { decision: 'deny', rationale: 'too much' },
      json,
    );
    expect(first.status).toBe(200);
    const second = await bob.post(`/console/holds/${hold?.id}/decision`, { decision: 'approve' }, json);
    expect(second.status).toBe(409);
    const body = await jsonOf(second);
    expect(body.outcome).toBe('refused');
    expect(body.message).toMatch(
      new RegExp(`^Hold ${hold?.id} was already denied by ana at .+: too much\\. Nothing was changed\\.$`),
    );
    expect((await world.store.getHold(hold?.id ?? ''))?.decidedBy).toBe('ana');
  });

  it('a decision posted from a plain form redirects to the hold page, which shows who decided', async () => {
    world = await createConsoleWorld();
    const { hold } = await world.refund({ tenantId: 'acme', amount: 900 });
    const client = await signedIn();
    const bare = await client.post(`/console/holds/${hold?.id}/decision`, { decision: 'skip' });
    expect(bare.status).toBe(400);
    expect(await bare.text()).toContain(
      'Refusing and stopping the session needs a rationale: it is stored with the decision.',
    );
    expect((await world.store.getHold(hold?.id ?? ''))?.status).toBe('pending');
    const response = await client.post(`/console/holds/${hold?.id}/decision`, {
      decision: 'skip',
      rationale: 'refund loop',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('Location')).toBe(`/console/holds/${hold?.id}`);
    const page = await (await client.get(`/console/holds/${hold?.id}`)).text();
    expect(page).toMatch(/<p class="outcome" role="status">Skipped by ana at [^<]+: refund loop\.<\/p>/);
    expect(page).not.toContain('<form class="decision"');
  });

  it('does not offer holds nobody waits on, counts them, and refuses to decide them', async () => {
    let clockAhead = 0;
    world = await createConsoleWorld({ deps: { now: () => new Date(Date.now() + clockAhead) } });
    const { hold } = await world.refund({ tenantId: 'acme', amount: 900 });
    await world.store.checkInHoldWaiter(hold?.id ?? '', { pid: 1, host: 'gone' });
    const client = await signedIn();
    expect(await (await client.get('/console')).text()).toContain('id="queue-count">1<');
    // A waiter last seen long ago: the hold is abandoned.
    clockAhead = 60_000;
    const html = await (await client.get('/console')).text();
    expect(html).toContain('id="queue-count">0<');
    expect(html).toContain('1 pending hold is not shown: no agent waits on them any more');
    const late = await client.post(`/console/holds/${hold?.id}/decision`, { decision: 'approve' }, json);
    expect(late.status).toBe(409);
    expect((await jsonOf(late)).message).toBe(
      `Hold ${hold?.id} is abandoned: no agent process has checked in on it for over 10 s. No agent waits for this decision: the write will not run. Nothing was changed.`,
    );
  });
});

describe('console CSRF and origin checks', () => {
  it.each([
    [
      'no CSRF token',
      { csrf: '' },
      "Refused: the form's CSRF token is missing or does not match this session. Reload the page and try again.",
    ],
    [
      'a wrong CSRF token',
      { csrf: 'x'.repeat(43) },
      "Refused: the form's CSRF token is missing or does not match this session. Reload the page and try again.",
    ],
    [
      'no Origin',
      { origin: null },
      "Refused: the request has no Origin header. State changes are accepted only from the console's own pages.",
    ],
    [
      'another Origin',
      { origin: 'https://evil.example' },
      "Refused: the request comes from another site. State changes are accepted only from the console's own pages.",
    ],
    [
      'a cross-site fetch',
      { headers: { 'Sec-Fetch-Site': 'cross-site' } },
      "Refused: the request comes from another site. State changes are accepted only from the console's own pages.",
    ],
  ] as const)('refuses a decision with %s (403) and changes nothing', async (_what, options, message) => {
    world = await createConsoleWorld();
    const { hold } = await world.refund({ tenantId: 'acme', amount: 900 });
    const client = await signedIn();
    const response = await client.post(
      `/console/holds/${hold?.id}/decision`,
      { decision: 'approve' },
      {
        ...options,
        headers: { Accept: 'application/json', ...('headers' in options ? options.headers : {}) },
      },
    );
    expect(response.status).toBe(403);
    expect((await jsonOf(response)).detail).toBe(message);
    expect((await world.store.getHold(hold?.id ?? ''))?.status).toBe('pending');
  });

  it("accepts the token in the X-CSRF-Token header (the console's script), and refuses another session's token", async () => {
    world = await createConsoleWorld();
    const { hold } = await world.refund({ tenantId: 'acme', amount: 900 });
    const ana = await signedIn('nvo_ana_secret');
    const bob = await signedIn('nvo_bob_secret');
    const withBobs = await ana.post(
      `/console/holds/${hold?.id}/decision`,
      { decision: 'approve' },
      { csrf: false, headers: { Accept: 'application/json', 'X-CSRF-Token': bob.csrf ?? '' } },
    );
    expect(withBobs.status).toBe(403);
    const withOwn = await ana.post(
      `/console/holds/${hold?.id}/decision`,
      { decision: 'approve' },
      { csrf: false, headers: { Accept: 'application/json', 'X-CSRF-Token': ana.csrf ?? '' } },
    );
    expect(withOwn.status).toBe(200);
  });

  it('refuses a kill and a sign-out without the CSRF token', async () => {
    world = await createConsoleWorld();
    const { session } = await world.refund({ tenantId: 'acme', amount: 100 });
    const client = await signedIn();
    expect(
      (await client.post(`/console/sessions/${session.id}/kill`, { reason: 'x' }, { csrf: '' })).status,
    ).toBe(403);
    expect((await world.store.getSession(session.id))?.killedAt).toBeUndefined();
    expect((await client.post('/console/sign-out', {}, { csrf: '' })).status).toBe(403);
    expect((await client.get('/console')).status).toBe(200);
  });
});
