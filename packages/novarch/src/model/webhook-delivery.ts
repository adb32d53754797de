/** Where a webhook delivery stands: retried while `pending`, then `delivered` or `failed` (gave up). */
export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/**
 * One webhook notification and its delivery attempts, as stored (so failures are visible). Holds no
 * secret: the signing secret is never stored, and `url` is only the receiver's origin (a webhook
 * URL's path or query is often its secret, e.g. a chat service's incoming-webhook URL).
 */
export interface WebhookDeliveryRecord {
  id: string;
  tenantId: string;
  /** e.g. `hold.created`. */
  event: string;
  /** The hold the notification is about, when it is about one. */
  holdId?: string;
  /** The receiver's origin, e.g. `https://hooks.example.com`. */
  url: string;
  /** The JSON body sent (signed anew at each attempt). */
  payload: unknown;
  status: WebhookDeliveryStatus;
  /** Attempts made so far. */
  attempts: number;
  /** The HTTP status of the last attempt, when the receiver answered. */
  lastStatus?: number;
  /** Why the last attempt failed (no secret in it), when it did. */
  lastError?: string;
  lastAttemptAt?: string;
  /** When the next attempt is due, while `pending`. */
  nextAttemptAt?: string;
  createdAt: string;
  deliveredAt?: string;
}

/** What `NovarchStore.recordWebhookDelivery` stores: a new pending delivery, due now. */
export interface NewWebhookDelivery {
  tenantId: string;
  event: string;
  holdId?: string;
  url: string;
  payload: unknown;
}

/** The outcome of one attempt (`NovarchStore.recordWebhookAttempt`). */
export interface WebhookAttempt {
  status: WebhookDeliveryStatus;
  /** The HTTP status, when the receiver answered. */
  httpStatus?: number;
  error?: string;
  /** When the next attempt is due (only with status `pending`). */
  nextAttemptAt?: string;
}

/** Filters of `NovarchStore.listWebhookDeliveries`. */
export interface WebhookDeliveryFilter {
  status?: WebhookDeliveryStatus;
  /** Only the most recent `limit` deliveries (still oldest first). */
  limit?: number;
}

/**
 * Claims on deliveries, for notifiers of several servers sharing one store: an attempt is made by
 * the notifier holding the delivery's claim (a lease with an owner and an expiry), so each
 * delivery is sent by one server; a claim of a server that died expires and another takes it.
 */
export interface WebhookClaims {
  /** Claims (or extends this owner's claim on) a pending delivery for `leaseMs`; false when another holds it. */
  claim(deliveryId: string, leaseMs: number): Promise<boolean>;
  /** The ids of pending deliveries due now that nobody holds a live claim on. */
  claimable(limit: number): Promise<string[]>;
  /** How often the notifier looks for such deliveries (ms). */
  readonly sweepIntervalMs: number;
}
