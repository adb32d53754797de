import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  HoldWebhookPayloadSchema,
  type NovarchDatabaseStore,
  openSqliteStore,
  verifyWebhookSignature,
  WebhookConfigError,
  type WebhookDeliveryRecord,
  WebhookNotifier,
  type WebhookNotifierOptions,
} from '../../../src/index.js';
import { createPendingHold } from '../../store/conformance-context.js';
import { createTempStoreFiles } from '../../store/temp-store-file.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

const SECRET = 'whsec-0123456789abcdef-test';
const files = createTempStoreFiles();
afterAll(() => files.cleanup());

let store: NovarchDatabaseStore;
let receiver: WebhookReceiver;
const notifiers: WebhookNotifier[] = [];
beforeEach(async () => {
  store = await openSqliteStore(files.next());
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await Promise.all(notifiers.splice(0).map((notifier) => notifier.stop()));
  await receiver.close();
  await store.close();
});

function notifier(options: Partial<WebhookNotifierOptions> = {}): WebhookNotifier {
  const created = new WebhookNotifier({
    store,
    targets: { acme: { url: `${receiver.url}/hooks/novarch`, secret: SECRET } },
    consoleUrl: 'https://novarch.example.com/console/',
    initialBackoffMs: 20,
    maxBackoffMs: 100,
    random: () => 0,
    ...options,
  });
  notifiers.push(created);
  return created;
}

/** A pending hold of tenant acme, as the server would pass it on. */
async function heldWrite() {
  const { session, action, hold } = await createPendingHold(store);
  return {
    session,
    action,
    hold,
    citations: { ruleIds: ['TEAM-2'], evidenceIds: [], rationale: 'over 500' },
  };
}

async function deliveryWhen(
  check: (delivery: WebhookDeliveryRecord) => boolean,
): Promise<WebhookDeliveryRecord> {
  return eventually('the webhook delivery', async () => {
    const [delivery] = await store.listWebhookDeliveries('acme');
    return delivery !== undefined && check(delivery) ? delivery : undefined;
  });
}

describe('WebhookNotifier', () => {
  it('POSTs a signed hold.created payload with the console link, and records it delivered', async () => {
    const event = await heldWrite();
    const queued = notifier().notifyHold(event);
    // Returns at once, with a plain boolean: the gate never awaits a receiver.
    expect(queued).toBe(true);
    const delivery = await deliveryWhen((found) => found.status === 'delivered');
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    if (request === undefined) throw new Error('one request expected');
    expect(request.path).toBe('/hooks/novarch');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['novarch-event']).toBe('hold.created');
    expect(request.headers['novarch-delivery']).toBe(delivery.id);
    const header = request.headers['novarch-signature'];
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(
      verifyWebhookSignature({ secret: SECRET, body: request.body, header: String(header) }),
    ).toMatchObject({
      valid: true,
    });
    expect(
      verifyWebhookSignature({
        secret: 'another-secret-entirely',
        body: request.body,
        header: String(header),
      }),
    ).toEqual({
      valid: false,
      reason: 'no signature matches the body under the secret',
    });
    const payload = HoldWebhookPayloadSchema.parse(JSON.parse(request.body));
    // The delivery id is signed with the body, and is the header's.
    expect(payload.deliveryId).toBe(delivery.id);
    expect(payload).toEqual({
      event: 'hold.created',
      deliveryId: delivery.id,
      tenant: 'acme',
      team: 'support',
      agent: 'refund-bot',
      sessionId: event.session.id,
      hold: {
        id: event.hold.id,
        createdAt: event.hold.createdAt,
        deadline: event.hold.deadline,
        url: `https://novarch.example.com/console/holds/${event.hold.id}`,
      },
      action: {
        id: event.action.id,
        type: 'refund',
        tool: 'mcp__billing__refund',
        recordId: 'c-1',
        summary: 'refund 120 EUR',
        amount: 120,
      },
      ruleIds: ['TEAM-2'],
    });
    const { deliveryId: _signedId, ...storedPayload } = payload;
    expect(delivery).toMatchObject({
      tenantId: 'acme',
      holdId: event.hold.id,
      url: receiver.url,
      status: 'delivered',
      attempts: 1,
      lastStatus: 200,
      // Stored without the id; it is added to the body as it is signed.
      payload: storedPayload,
    });
  });

  it('retries after 500s with backoff, and delivers once the receiver recovers', async () => {
    receiver.script([500, 503], 200);
    notifier().notifyHold(await heldWrite());
    const delivery = await deliveryWhen((found) => found.status === 'delivered');
    expect(delivery).toMatchObject({ attempts: 3, lastStatus: 200 });
    expect(delivery).not.toHaveProperty('lastError');
    expect(receiver.received).toHaveLength(3);
    const ids = new Set(receiver.received.map((request) => request.headers['novarch-delivery']));
    expect(ids).toEqual(new Set([delivery.id]));
    for (const request of receiver.received) {
      const header = String(request.headers['novarch-signature']);
      expect(verifyWebhookSignature({ secret: SECRET, body: request.body, header }).valid).toBe(true);
    }
  });

  it('gives up after maxAttempts and records why, so the failure is visible', async () => {
    receiver.script([], 500);
    notifier({ maxAttempts: 3 }).notifyHold(await heldWrite());
    const delivery = await deliveryWhen((found) => found.status === 'failed');
    expect(delivery).toMatchObject({
      attempts: 3,
      lastStatus: 500,
      lastError: 'HTTP 500; gave up after 3 attempts',
    });
    expect(delivery).not.toHaveProperty('nextAttemptAt');
    expect(receiver.received).toHaveLength(3);
    expect(await store.listWebhookDeliveries('acme', { status: 'failed' })).toEqual([delivery]);
  });

  it('keeps the URL path and the secret out of stored rows and errors', async () => {
    const secretPath = '/services/T0001/B0002/pathsecret0123456789';
    await receiver.close();
    const closed = receiver.url;
    receiver = await startWebhookReceiver();
    notifier({
      targets: { acme: { url: `${closed}${secretPath}?token=querysecret42`, secret: SECRET } },
      maxAttempts: 2,
    }).notifyHold(await heldWrite());
    const delivery = await deliveryWhen((found) => found.status === 'failed');
    expect(delivery.url).toBe(closed);
    expect(delivery.lastError).toMatch(/^fetch failed \(.*ECONNREFUSED.*\); gave up after 2 attempts$/);
    const stored = JSON.stringify(await store.listWebhookDeliveries('acme'));
    for (const secret of [SECRET, 'pathsecret0123456789', 'querysecret42'])
      expect(stored).not.toContain(secret);
  });

  it('an answer slower than timeoutMs fails the attempt and is retried; the caller never waits', async () => {
    receiver.script(['hang'], 200);
    const event = await heldWrite();
    expect(notifier({ timeoutMs: 200 }).notifyHold(event)).toBe(true);
    // notifyHold returned before any request was made: sending happens afterwards.
    expect(receiver.received).toHaveLength(0);
    const delivery = await deliveryWhen((found) => found.status === 'delivered');
    expect(delivery.attempts).toBe(2);
    expect(receiver.received).toHaveLength(2);
  });

  it('stop() leaves a delivery pending in the store; start() in a new notifier resumes it', async () => {
    receiver.script([500], 200);
    const first = notifier({ initialBackoffMs: 500, maxBackoffMs: 500 });
    first.notifyHold(await heldWrite());
    const pending = await deliveryWhen((found) => found.attempts === 1);
    await first.stop();
    expect(pending).toMatchObject({ status: 'pending', lastStatus: 500, lastError: 'HTTP 500' });
    expect(Date.parse(pending.nextAttemptAt ?? '')).toBeGreaterThan(Date.parse(pending.lastAttemptAt ?? ''));
    expect(first.notifyHold(await heldWrite())).toBe(false);
    expect(receiver.received).toHaveLength(1);
    const second = notifier();
    await second.start();
    const delivered = await eventually('the resumed delivery', async () => {
      const found = (await store.listWebhookDeliveries('acme')).find(
        (delivery) => delivery.id === pending.id,
      );
      return found?.status === 'delivered' ? found : undefined;
    });
    expect(delivered.attempts).toBe(2);
    expect(receiver.received).toHaveLength(2);
  });

  it('a tenant without a webhook gets none, and nothing is recorded', async () => {
    const event = await heldWrite();
    const other = { ...event, session: { ...event.session, tenantId: 'globex' } };
    const created = notifier();
    expect(created.notifyHold(other)).toBe(false);
    await created.whenIdle();
    expect(await store.listWebhookDeliveries('globex')).toEqual([]);
  });

  it('refuses bad settings with what to fix, never quoting the secret', () => {
    const base = { store, consoleUrl: 'https://n.example.com/console' };
    expect(
      () =>
        new WebhookNotifier({
          ...base,
          targets: { acme: { url: 'https://h.example.com', secret: 'short-secret' } },
        }),
    ).toThrow(
      new WebhookConfigError(
        'the webhook of tenant "acme": secret must be at least 16 characters (e.g. the output of `openssl rand -hex 32`).',
      ),
    );
    expect(
      () =>
        new WebhookNotifier({ ...base, targets: { acme: { url: 'ftp://h.example.com', secret: SECRET } } }),
    ).toThrow('the webhook of tenant "acme": url must be http: or https:, got ftp:.');
    expect(
      () => new WebhookNotifier({ ...base, targets: { acme: { url: 'not a url', secret: SECRET } } }),
    ).toThrow(
      'the webhook of tenant "acme": url is not a valid URL; expected e.g. https://hooks.example.com/novarch.',
    );
    expect(() => new WebhookNotifier({ ...base, targets: {}, consoleUrl: '/console' })).toThrow(
      "consoleUrl is not a valid URL; expected the console's address, e.g. https://novarch.example.com/console.",
    );
    expect(() => new WebhookNotifier({ ...base, targets: {}, maxAttempts: 0 })).toThrow(
      'maxAttempts must be a whole number ≥ 1; got 0.',
    );
  });
});
