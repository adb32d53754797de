import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookNotifier } from '../../../src/notify/webhook-notifier.js';
import { loadRulesFile } from '../../../src/rules/load-rules-file.js';
import { createServerApp } from '../../../src/server/create-server-app.js';
import { openServerStores, type ServerStores } from '../../../src/server/open-server-stores.js';
import { ServerEvents } from '../../../src/server/server-events.js';
import { ConsoleClient } from '../../console-support/console-client.js';
import { SessionSecrets } from '../../server-support/session-secrets.js';
import { GATE_RULES, lookupEvidence, refundProposal } from './server-fixture.js';

// The console as `novarch serve` mounts it: on the server's store and identities, its decisions
// announced on the server's event bus, the server's webhook deliveries on its webhooks page.

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

async function serverWithConsole(options: { webhookUrl?: string } = {}) {
  const directory = mkdtempSync(path.join(tmpdir(), 'novarch-server-console-'));
  const stores: ServerStores = await openServerStores(`sqlite:${path.join(directory, 'novarch.db')}`);
  const shutdown = new AbortController();
  const notifier =
    options.webhookUrl === undefined
      ? undefined
      : new WebhookNotifier({
          store: stores.store,
          targets: { acme: { url: options.webhookUrl, secret: 'whsec-unit-0123456789' } },
          consoleUrl: 'http://localhost/console',
          maxAttempts: 1,
          timeoutMs: 2_000,
        });
  const app = createServerApp(
    {
      store: stores.store,
      identities: stores.identities,
      events: new ServerEvents(),
      rules: [await loadRulesFile(GATE_RULES)],
      holdWindowSeconds: 30,
      ...(notifier === undefined ? {} : { notifier }),
      shutdown: shutdown.signal,
    },
    { log: () => {} },
  );
  cleanup = async () => {
    shutdown.abort();
    await notifier?.stop();
    await stores.close();
    rmSync(directory, { recursive: true, force: true });
  };
  const secrets = new SessionSecrets();
  const api = async (method: string, url: string, credential: string, body?: unknown) => {
    const response = await app.request(url, {
      method,
      headers: {
        ...secrets.headersFor(url),
        authorization: `Bearer ${credential}`,
        'content-type': 'application/json',
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (response.headers.get('content-type')?.startsWith('application/json'))
      secrets.learn(await response.clone().json());
    return response;
  };
  const key = (await stores.identities.createAgentKey({ tenantId: 'acme', name: 'bot' })).secret;
  const ana = await stores.identities.createOperatorToken({
    name: 'ana',
    role: 'operator',
    grants: [{ tenantId: 'acme' }],
  });
  /** A refund of 900 after a lookup: held for an operator. */
  async function holdARefund(): Promise<{ sessionId: string; holdId: string }> {
    const session = (await (
      await api('POST', '/v1/sessions', key, { teamId: 'cs-ops', agentId: 'cs-bot' })
    ).json()) as { id: string };
    await api('POST', `/v1/sessions/${session.id}/evidence`, key, lookupEvidence('C1'));
    const decision = (await (
      await api('POST', `/v1/sessions/${session.id}/actions`, key, refundProposal('C1', 900))
    ).json()) as {
      hold?: { id: string };
    };
    return { sessionId: session.id, holdId: decision.hold?.id ?? '' };
  }
  return { app, stores, notifier, api, key, ana, holdARefund };
}

describe('the console mounted in the server', () => {
  it('signs in with the server’s operator tokens only, and a revoked token ends the console session', async () => {
    const world = await serverWithConsole();
    const asAgent = new ConsoleClient(world.app);
    const refused = await asAgent.signIn(world.key);
    expect(await refused.text()).toContain(
      'That is an agent key (nva_…): agents cannot sign in. Sign in with an operator token (nvo_…).',
    );
    const client = new ConsoleClient(world.app);
    expect((await client.signIn(world.ana.secret)).status).toBe(303);
    expect((await client.get('/console')).status).toBe(200);
    await world.stores.identities.revokeOperatorToken(world.ana.info.id);
    const after = await client.get('/console');
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toMatch(/^\/console\/sign-in/);
  });

  it('an approval in the console wakes the agent long-polling the hold through the API', async () => {
    const world = await serverWithConsole();
    const { holdId } = await world.holdARefund();
    const waiting = world.api('POST', `/v1/holds/${holdId}/wait`, world.key, { timeoutMs: 20_000 });
    const client = new ConsoleClient(world.app);
    await client.signIn(world.ana.secret);
    await client.get(`/console/holds/${holdId}`);
    const decided = await client.post(`/console/holds/${holdId}/decision`, { decision: 'approve' });
    expect(decided.status).toBe(303);
    expect(await (await waiting).json()).toMatchObject({ id: holdId, status: 'approved', decidedBy: 'ana' });
  });

  it('the rules page shows `rules calibrate` per team for admins, and tells an operator it is for admins', async () => {
    const world = await serverWithConsole();
    const admin = await world.stores.identities.createOperatorToken({
      name: 'ada',
      role: 'admin',
      grants: [{ tenantId: 'acme' }],
    });
    const adminClient = new ConsoleClient(world.app);
    await adminClient.signIn(admin.secret);
    expect(await (await adminClient.get('/console/rules')).text()).toContain(
      'No team of your tenants has rules pushed to this server',
    );
    const pushed = await world.app.request('/v1/rules/acme/cs-ops', {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.secret}`, 'content-type': 'application/yaml' },
      body: await readFile(GATE_RULES, 'utf8'),
    });
    expect(pushed.status).toBe(200);
    const { holdId } = await world.holdARefund();
    await adminClient.get(`/console/holds/${holdId}`);
    expect(
      (await adminClient.post(`/console/holds/${holdId}/decision`, { decision: 'approve' })).status,
    ).toBe(303);
    const page = await (await adminClient.get('/console/rules')).text();
    expect(page).toContain('<h2>acme / cs-ops <span class="muted">rules v1</span></h2>');
    expect(page).toContain('1 decided action measured (1 from holds, 0 from labels).');
    // TEAM-2 held the refund and the operator approved it: a needless hold.
    expect(page).toMatch(
      /<td><code class="rule">TEAM-2<\/code><\/td>\n<td>1<\/td>\n<td>[^<]+<\/td>\n<td>[^<]+<\/td>\n<td>0<\/td>\n<td>1<\/td>\n<td>0<\/td>\n<td>0<\/td>\n<td>1<\/td>/,
    );
    const operatorClient = new ConsoleClient(world.app);
    await operatorClient.signIn(world.ana.secret);
    expect(await (await operatorClient.get('/console/rules')).text()).toContain(
      'Rules calibration is for admins',
    );
  });

  it('without webhooks the webhooks page says so; with them a failed delivery shows its origin only', async () => {
    const plain = await serverWithConsole();
    const client = new ConsoleClient(plain.app);
    await client.signIn(plain.ana.secret);
    expect(await (await client.get('/console/webhooks')).text()).toContain(
      'This server sends no webhooks, so there are no deliveries to show.',
    );
    await cleanup?.();
    cleanup = undefined;

    const port = await closedPort();
    const world = await serverWithConsole({ webhookUrl: `http://127.0.0.1:${port}/private-hook-path` });
    const { holdId } = await world.holdARefund();
    await world.notifier?.whenIdle();
    const [delivery] = await world.stores.store.listWebhookDeliveries('acme');
    expect(delivery).toMatchObject({
      holdId,
      status: 'failed',
      attempts: 1,
      url: `http://127.0.0.1:${port}`,
    });
    const operator = new ConsoleClient(world.app);
    await operator.signIn(world.ana.secret);
    const page = await (await operator.get('/console/webhooks')).text();
    expect(page).toContain(`http://127.0.0.1:${port}`);
    expect(page).not.toContain('private-hook-path');
    expect(page).not.toContain('whsec-unit');
  });
});
