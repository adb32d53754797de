import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type {
  NewWebhookDelivery,
  WebhookAttempt,
  WebhookDeliveryFilter,
  WebhookDeliveryRecord,
} from '../model/webhook-delivery.js';
import { fromJsonColumn, toJsonColumn } from './json-column.js';
import { NovarchStoreError } from './novarch-store-error.js';
import { parseWith, type RowOrigin } from './parse-record-rows.js';
import type { StoreTables } from './store-tables.js';

const STATUSES = ['pending', 'delivered', 'failed'] as const;
const timestamp = z.iso.datetime();

const deliveryRowSchema = z.object({
  id: z.string().min(1),
  tenant_id: z.string(),
  event: z.string().min(1),
  hold_id: z.string().nullable(),
  url: z.string(),
  payload_json: z.string(),
  status: z.enum(STATUSES),
  attempts: z.int().min(0),
  last_status: z.int().nullable(),
  last_error: z.string().nullable(),
  last_attempt_at: timestamp.nullable(),
  next_attempt_at: timestamp.nullable(),
  created_at: timestamp,
  delivered_at: timestamp.nullable(),
});

function parseDeliveryRow(row: unknown, origin: RowOrigin = 'stored'): WebhookDeliveryRecord {
  const stored = parseWith(deliveryRowSchema, row, 'webhook delivery', origin);
  return {
    id: stored.id,
    tenantId: stored.tenant_id,
    event: stored.event,
    ...(stored.hold_id === null ? {} : { holdId: stored.hold_id }),
    url: stored.url,
    payload: fromJsonColumn(stored.payload_json, `payload of webhook delivery ${stored.id}`),
    status: stored.status,
    attempts: stored.attempts,
    ...(stored.last_status === null ? {} : { lastStatus: stored.last_status }),
    ...(stored.last_error === null ? {} : { lastError: stored.last_error }),
    ...(stored.last_attempt_at === null ? {} : { lastAttemptAt: stored.last_attempt_at }),
    ...(stored.next_attempt_at === null ? {} : { nextAttemptAt: stored.next_attempt_at }),
    createdAt: stored.created_at,
    ...(stored.delivered_at === null ? {} : { deliveredAt: stored.delivered_at }),
  };
}

/** `NovarchStore.recordWebhookDelivery`. */
export async function recordWebhookDelivery(
  db: Kysely<StoreTables>,
  delivery: NewWebhookDelivery,
): Promise<WebhookDeliveryRecord> {
  const now = new Date().toISOString();
  const row = {
    id: `whd_${randomUUID()}`,
    tenant_id: delivery.tenantId,
    event: delivery.event,
    hold_id: delivery.holdId ?? null,
    url: delivery.url,
    payload_json: toJsonColumn(delivery.payload, 'the webhook payload') ?? 'null',
    status: 'pending',
    attempts: 0,
    last_status: null,
    last_error: null,
    last_attempt_at: null,
    next_attempt_at: now,
    created_at: now,
    delivered_at: null,
  };
  const record = parseDeliveryRow(row, 'new');
  await db.insertInto('webhook_deliveries').values(row).execute();
  return record;
}

/** `NovarchStore.recordWebhookAttempt`: one attempt's outcome, counted once per call. */
export async function recordWebhookAttempt(
  db: Kysely<StoreTables>,
  id: string,
  attempt: WebhookAttempt,
): Promise<WebhookDeliveryRecord> {
  if (!STATUSES.includes(attempt.status)) {
    throw new NovarchStoreError(
      `A webhook delivery is pending, delivered or failed; got ${String(attempt.status)}.`,
    );
  }
  if (attempt.status === 'pending' && !timestamp.safeParse(attempt.nextAttemptAt).success) {
    throw new NovarchStoreError(
      `A pending webhook delivery needs the time of its next attempt (an ISO-8601 UTC time); got ${String(attempt.nextAttemptAt)}.`,
    );
  }
  const now = new Date().toISOString();
  // Only a pending delivery takes an attempt: once delivered or given up, it stays so (another
  // notifier sharing the store may have finished it first).
  await db
    .updateTable('webhook_deliveries')
    .set((expression) => ({
      status: attempt.status,
      attempts: expression('attempts', '+', 1),
      last_status: attempt.httpStatus ?? null,
      last_error: attempt.error ?? null,
      last_attempt_at: now,
      next_attempt_at: attempt.status === 'pending' ? (attempt.nextAttemptAt ?? now) : null,
      delivered_at: attempt.status === 'delivered' ? now : null,
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  const row = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  if (row === undefined) throw new NovarchStoreError(`No webhook delivery ${id}: no attempt was recorded.`);
  return parseDeliveryRow(row);
}

/** `NovarchStore.listWebhookDeliveries`. */
export async function listWebhookDeliveries(
  db: Kysely<StoreTables>,
  tenantId: string,
  filter: WebhookDeliveryFilter = {},
): Promise<WebhookDeliveryRecord[]> {
  const { limit, status } = filter;
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1)) {
    throw new NovarchStoreError(`A webhook delivery limit must be a positive integer; got ${limit}.`);
  }
  if (status !== undefined && !STATUSES.includes(status)) {
    throw new NovarchStoreError(
      `A webhook delivery status is pending, delivered or failed; got ${String(status)}.`,
    );
  }
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .$if(status !== undefined, (query) => query.where('status', '=', status ?? ''))
    .orderBy('seq', 'desc')
    .$if(limit !== undefined, (query) => query.limit(limit ?? 0))
    .execute();
  return rows.reverse().map((row) => parseDeliveryRow(row));
}

/** `NovarchStore.listPendingWebhookDeliveries`. */
export async function listPendingWebhookDeliveries(
  db: Kysely<StoreTables>,
): Promise<WebhookDeliveryRecord[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('status', '=', 'pending')
    .orderBy('seq', 'asc')
    .execute();
  return rows.map((row) => parseDeliveryRow(row));
}
