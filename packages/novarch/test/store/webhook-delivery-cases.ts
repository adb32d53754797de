import { describe, expect } from 'vitest';
import { type ConformanceContext, ISO_TIMESTAMP } from './conformance-context.js';

const payload = { event: 'hold.created', hold: { id: 'hold_1', summary: 'refund 120 EUR — ✓' } };

/** Webhook deliveries: recorded pending, attempts counted, listed per tenant, pending resumed. */
export function describeWebhookDeliveryCases({ store, check }: ConformanceContext): void {
  describe('webhook deliveries', () => {
    check('recordWebhookDelivery stores a pending delivery due now, with its payload', async () => {
      const delivery = await store().recordWebhookDelivery({
        tenantId: 'acme',
        event: 'hold.created',
        holdId: 'hold_1',
        url: 'https://hooks.example.com',
        payload,
      });
      expect(delivery).toEqual({
        id: expect.stringMatching(/^whd_/),
        tenantId: 'acme',
        event: 'hold.created',
        holdId: 'hold_1',
        url: 'https://hooks.example.com',
        payload,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: delivery.createdAt,
        createdAt: expect.stringMatching(ISO_TIMESTAMP),
      });
      expect(await store().listWebhookDeliveries('acme')).toEqual([delivery]);
      expect(await store().listPendingWebhookDeliveries()).toEqual([delivery]);
    });

    check('recordWebhookAttempt counts attempts; a finished delivery takes no more', async () => {
      const { id } = await store().recordWebhookDelivery({
        tenantId: 'acme',
        event: 'hold.created',
        url: 'http://127.0.0.1:1',
        payload,
      });
      const next = new Date(Date.now() + 1000).toISOString();
      const failed = await store().recordWebhookAttempt(id, {
        status: 'pending',
        httpStatus: 500,
        error: 'HTTP 500',
        nextAttemptAt: next,
      });
      expect(failed).toMatchObject({
        attempts: 1,
        status: 'pending',
        lastStatus: 500,
        lastError: 'HTTP 500',
        nextAttemptAt: next,
      });
      expect(failed.lastAttemptAt).toMatch(ISO_TIMESTAMP);
      const delivered = await store().recordWebhookAttempt(id, { status: 'delivered', httpStatus: 204 });
      expect(delivered).toMatchObject({ attempts: 2, status: 'delivered', lastStatus: 204 });
      expect(delivered).not.toHaveProperty('nextAttemptAt');
      expect(delivered).not.toHaveProperty('lastError');
      expect(delivered.deliveredAt).toMatch(ISO_TIMESTAMP);
      expect(await store().recordWebhookAttempt(id, { status: 'failed', error: 'late' })).toEqual(delivered);
      expect(await store().listPendingWebhookDeliveries()).toEqual([]);
    });

    check('listWebhookDeliveries is per tenant, filters by status and keeps the most recent', async () => {
      const made = [];
      for (const tenantId of ['acme', 'other', 'acme', 'acme']) {
        made.push(
          await store().recordWebhookDelivery({ tenantId, event: 'hold.created', url: 'https://h', payload }),
        );
      }
      const [a1, o1, a2, a3] = made;
      if (a1 === undefined || o1 === undefined || a2 === undefined || a3 === undefined)
        throw new Error('four deliveries');
      await store().recordWebhookAttempt(a2.id, { status: 'failed', error: 'gave up' });
      const ids = async (
        tenant: string,
        filter?: Parameters<ReturnType<typeof store>['listWebhookDeliveries']>[1],
      ) => (await store().listWebhookDeliveries(tenant, filter)).map((delivery) => delivery.id);
      expect(await ids('acme')).toEqual([a1.id, a2.id, a3.id]);
      expect(await ids('other')).toEqual([o1.id]);
      expect(await ids('acme', { status: 'failed' })).toEqual([a2.id]);
      expect(await ids('acme', { limit: 2 })).toEqual([a2.id, a3.id]);
      expect((await store().listPendingWebhookDeliveries()).map((delivery) => delivery.id)).toEqual([
        a1.id,
        o1.id,
        a3.id,
      ]);
      await expect(store().listWebhookDeliveries('acme', { limit: 0 })).rejects.toThrow(
        'A webhook delivery limit must be a positive integer; got 0.',
      );
    });

    check('an attempt on an unknown delivery, or pending without a next time, fails', async () => {
      await expect(store().recordWebhookAttempt('whd_missing', { status: 'failed' })).rejects.toThrow(
        'No webhook delivery whd_missing: no attempt was recorded.',
      );
      const { id } = await store().recordWebhookDelivery({
        tenantId: 't',
        event: 'e',
        url: 'https://h',
        payload,
      });
      await expect(store().recordWebhookAttempt(id, { status: 'pending' })).rejects.toThrow(
        'A pending webhook delivery needs the time of its next attempt (an ISO-8601 UTC time); got undefined.',
      );
      expect((await store().listWebhookDeliveries('t'))[0]?.attempts).toBe(0);
    });
  });
}
