import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { StoredConsoleSessionStore } from '../../../src/console/console-session-store.js';
import type { ConsoleOperator } from '../../../src/console/index.js';
import type { IdentityStore } from '../../../src/identity/identity-store.js';
import { openIdentityStore } from '../../../src/identity/open-identity-store.js';
import { createServerApp, type ServerAppOptions } from '../../../src/server/create-server-app.js';
import { openServerStores, type ServerStores } from '../../../src/server/open-server-stores.js';
import { ServerEvents } from '../../../src/server/server-events.js';
import { ConsoleClient, jsonOf } from '../../console-support/console-client.js';

// Console sessions in the store: a restart keeps operators signed in, several server processes on
// one store share them, and only the SHA-256 of a session id is stored.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function storeFile(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'novarch-console-sessions-'));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  return path.join(folder, 'novarch.db');
}

interface ServerInstance {
  app: Hono;
  stores: ServerStores;
  close(): Promise<void>;
}

/** One server app (as one `novarch serve` process would make it) on the store file. */
async function serverOn(file: string, options: ServerAppOptions = {}): Promise<ServerInstance> {
  const stores = await openServerStores(`sqlite:${file}`);
  const shutdown = new AbortController();
  const app = createServerApp(
    {
      store: stores.store,
      identities: stores.identities,
      events: new ServerEvents(),
      rules: [],
      holdWindowSeconds: 30,
      shutdown: shutdown.signal,
    },
    { log: () => {}, ...options },
  );
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    shutdown.abort();
    await stores.close();
  };
  cleanups.push(close);
  return { app, stores, close };
}

/** A browser that carries on with another's cookie and CSRF token (the same browser, another process). */
function sameBrowser(client: ConsoleClient, app: Hono): ConsoleClient {
  const other = new ConsoleClient(app);
  other.cookie = client.cookie;
  other.csrf = client.csrf;
  return other;
}

describe('console sessions in the store', () => {
  it('keep an operator signed in across a server restart, CSRF token included', async () => {
    const file = storeFile();
    const first = await serverOn(file);
    const ana = await first.stores.identities.createOperatorToken({
      name: 'ana',
      role: 'operator',
      grants: [{ tenantId: 'acme' }],
    });
    const client = new ConsoleClient(first.app);
    expect((await client.signIn(ana.secret)).status).toBe(303);
    expect(client.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await first.close();

    const second = await serverOn(file);
    const browser = sameBrowser(client, second.app);
    const page = await browser.get('/console');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Signed in as <strong>ana</strong> (operator)');
    expect(browser.csrf).toBe(client.csrf); // the restarted server derives the same token
    // A state change with the token the first server's page carried is accepted.
    const out = await sameBrowser(client, second.app).post('/console/sign-out', {});
    expect(out.status).toBe(303);
    expect(out.headers.get('Location')).toBe('/console/sign-in?signed-out=1');
    const after = await sameBrowser(client, second.app).get('/console', { Accept: 'application/json' });
    expect(after.status).toBe(401);
    expect((await jsonOf(after)).detail).toBe(
      'Not signed in: sign in to the console with your operator token.',
    );
  });

  it('are shared by two server processes on one store: sign in on one, use, revoke and sign out on the other', async () => {
    const file = storeFile();
    const [a, b] = [await serverOn(file), await serverOn(file)];
    const ana = await a.stores.identities.createOperatorToken({
      name: 'ana',
      role: 'operator',
      grants: [{ tenantId: 'acme' }],
    });
    const bob = await a.stores.identities.createOperatorToken({
      name: 'bob',
      role: 'operator',
      grants: [{ tenantId: 'acme' }],
    });
    const onA = new ConsoleClient(a.app);
    await onA.signIn(ana.secret);
    expect((await sameBrowser(onA, b.app).get('/console/sessions')).status).toBe(200);
    await sameBrowser(onA, b.app).post('/console/sign-out', {});
    expect((await onA.get('/console')).headers.get('Location')).toBe('/console/sign-in');

    const bobOnB = new ConsoleClient(b.app);
    await bobOnB.signIn(bob.secret);
    expect((await sameBrowser(bobOnB, a.app).get('/console')).status).toBe(200);
    await a.stores.identities.revokeOperatorToken(bob.info.id);
    const revoked = await bobOnB.get('/console');
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('Location')).toBe('/console/sign-in?revoked=1');
    const json = await sameBrowser(bobOnB, a.app).get('/console', { Accept: 'application/json' });
    expect(json.status).toBe(401);
    expect((await jsonOf(json)).detail).toBe('You were signed out: your operator token is no longer valid.');
  });

  it('store only the SHA-256 of the session id: neither the cookie, the CSRF token nor the operator token', async () => {
    const file = storeFile();
    const server = await serverOn(file);
    const ana = await server.stores.identities.createOperatorToken({
      name: 'ana',
      role: 'admin',
      grants: [{ tenantId: 'acme', teamId: 'cs-ops' }],
    });
    const client = new ConsoleClient(server.app);
    await client.signIn(ana.secret);
    const id = client.cookie?.split('=')[1] ?? '';
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const database = new Database(file, { readonly: true });
    cleanups.push(() => {
      database.close();
    });
    const rows = database.prepare('select * from novarch_console_sessions').all();
    expect(rows).toEqual([
      {
        id_hash: createHash('sha256').update(id).digest('hex'),
        operator_id: ana.info.id,
        operator: JSON.stringify({
          id: ana.info.id,
          name: 'ana',
          role: 'admin',
          grants: [{ tenantId: 'acme', teamId: 'cs-ops' }],
        }),
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        last_seen_at: expect.stringMatching(/^\d{4}-/),
        revoked_at: null,
      },
    ]);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(id);
    expect(stored).not.toContain(client.csrf ?? 'no csrf');
    expect(stored).not.toContain(ana.secret.slice(ana.info.id.length + 1));
    // A cookie holding the stored hash instead of the id signs nobody in.
    const forged = await server.app.request('/console', {
      headers: { Cookie: `novarch_console=${createHash('sha256').update(id).digest('hex')}` },
    });
    expect(forged.status).toBe(303);
    expect(forged.headers.get('Location')).toBe('/console/sign-in');
  });

  it('limits failed sign-ins per address through the server’s console options', async () => {
    const server = await serverOn(storeFile(), {
      console: { signInLimit: { maxFailures: 2, windowMs: 60_000 } },
    });
    const ana = await server.stores.identities.createOperatorToken({
      name: 'ana',
      role: 'operator',
      grants: [{ tenantId: 'acme' }],
    });
    const client = new ConsoleClient(server.app);
    const wrong = `${ana.info.id}_${'A'.repeat(43)}`;
    expect((await client.signIn(wrong)).status).toBe(401);
    expect((await client.signIn(wrong)).status).toBe(401);
    const refused = await client.signIn(ana.secret);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThanOrEqual(59);
    expect(await refused.text()).toContain('Too many failed sign-ins from your address: try again in');
  });
});

describe('StoredConsoleSessionStore', () => {
  const ana: ConsoleOperator = {
    id: 'nvo_aaaaaaaaaaaa',
    name: 'ana',
    role: 'operator',
    grants: [{ tenantId: 'acme' }],
  };

  async function sessionsOn(options: { idleTimeoutMs?: number; absoluteTimeoutMs?: number } = {}) {
    const identities: IdentityStore = await openIdentityStore({ kind: 'sqlite', path: storeFile() });
    cleanups.push(() => identities.close());
    const clock = { now: Date.parse('2026-12-01T10:00:00.000Z') };
    const sessions = new StoredConsoleSessionStore(identities, options, () => clock.now);
    return { identities, sessions, clock };
  }

  it('ends an idle session and a session past its absolute lifetime, and deletes its row', async () => {
    const { identities, sessions, clock } = await sessionsOn({
      idleTimeoutMs: 60_000,
      absoluteTimeoutMs: 150_000,
    });
    const idle = await sessions.create(ana);
    clock.now += 59_000;
    expect((await sessions.lookup(idle.id)).found).toBe('active');
    clock.now += 60_001;
    expect(await sessions.lookup(idle.id)).toEqual({ found: 'expired' });
    expect(
      await identities.findConsoleSession(createHash('sha256').update(idle.id).digest('hex')),
    ).toBeUndefined();
    expect(await sessions.lookup(idle.id)).toEqual({ found: 'none' });

    const busy = await sessions.create(ana);
    for (let step = 0; step < 3; step++) {
      clock.now += 50_000;
      expect((await sessions.lookup(busy.id)).found).toBe('active');
    }
    expect(await sessions.isActive(busy)).toBe(true);
    clock.now += 1_000;
    expect(await sessions.isActive(busy)).toBe(false);
    expect(await sessions.lookup(busy.id)).toEqual({ found: 'expired' });
  });

  it('writes the last activity at most every tenth of the idle timeout (at most a minute)', async () => {
    const { identities, sessions, clock } = await sessionsOn({ idleTimeoutMs: 100_000 });
    const session = await sessions.create(ana);
    const hash = createHash('sha256').update(session.id).digest('hex');
    const start = clock.now;
    clock.now += 9_999;
    await sessions.lookup(session.id);
    expect((await identities.findConsoleSession(hash))?.lastSeenAt).toBe(start);
    clock.now += 1;
    await sessions.lookup(session.id);
    expect((await identities.findConsoleSession(hash))?.lastSeenAt).toBe(start + 10_000);
  });

  it('finds the session by its id only, refuses a revoked one, and fails closed on a row it cannot read', async () => {
    const { identities, sessions } = await sessionsOn();
    const session = await sessions.create(ana);
    const found = await sessions.lookup(session.id);
    expect(found).toEqual({
      found: 'active',
      session: {
        id: session.id,
        operator: ana,
        csrfToken: session.csrfToken,
        createdAt: session.createdAt,
        lastSeenAt: session.createdAt,
      },
    });
    expect(session.csrfToken).not.toBe(session.id);
    for (const junk of [
      undefined,
      '',
      'x',
      `${session.id}x`,
      session.id.slice(1),
      `${session.id.slice(0, 42)}!`,
    ])
      expect(await sessions.lookup(junk)).toEqual({ found: 'none' });

    await identities.revokeOperatorToken(ana.id); // no token row: only its console sessions are revoked
    expect(await sessions.lookup(session.id)).toEqual({ found: 'revoked' });
    expect(await sessions.isActive(session)).toBe(false);

    const other = await sessions.create({ ...ana, id: 'nvo_bbbbbbbbbbbb' });
    const hash = createHash('sha256').update(other.id).digest('hex');
    await identities.deleteConsoleSession(hash);
    await identities.insertConsoleSession({
      idHash: hash,
      operatorId: 'nvo_bbbbbbbbbbbb',
      operator: '{"id":"nvo_bbbbbbbbbbbb","name":"bob","role":"root","grants":[]}',
      createdAt: other.createdAt,
      lastSeenAt: other.createdAt,
    });
    expect(await sessions.lookup(other.id)).toEqual({ found: 'none' });
    expect(await identities.findConsoleSession(hash)).toBeUndefined();
  });

  it('deletes ended sessions at each sign-in', async () => {
    const { identities, sessions, clock } = await sessionsOn({ idleTimeoutMs: 60_000 });
    const old = await sessions.create(ana);
    clock.now += 61_000;
    await sessions.create(ana);
    expect(
      await identities.findConsoleSession(createHash('sha256').update(old.id).digest('hex')),
    ).toBeUndefined();
  });
});
