import { NovarchError } from '../errors.js';
import type { WebhookClaims, WebhookDeliveryRecord } from '../model/webhook-delivery.js';
import { errorMessage } from '../support.js';
import { deliverWebhook } from './deliver-webhook.js';
import {
  buildHoldWebhookPayload,
  HOLD_CREATED_EVENT,
  type HoldCreatedEvent,
} from './hold-webhook-payload.js';
import {
  checkedNotifierSettings,
  type NotifierSetting,
  type WebhookNotifierOptions,
} from './webhook-notifier-options.js';
import { checkWebhookTarget, type WebhookTarget } from './webhook-target.js';

export { WEBHOOK_DEFAULTS, type WebhookNotifierOptions } from './webhook-notifier-options.js';

/**
 * Sends a signed webhook (`Novarch-Signature`, see `signWebhook`) for every new hold, in the
 * background: `notifyHold` returns at once and never throws, so the gate never waits for a
 * receiver. Each delivery is a row of the store (pending, delivered or failed, with attempts,
 * last status and error, next attempt), retried with exponential backoff and jitter up to
 * `maxAttempts`. `stop()` persists what is pending; `start()` in the next process resumes it.
 * Delivery is at least once: receivers dedupe on the `Novarch-Delivery` header.
 */
export class WebhookNotifier {
  readonly #options: WebhookNotifierOptions;
  readonly #settings: Readonly<Record<NotifierSetting, number>>;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #work = new Set<Promise<unknown>>();
  readonly #queue: Array<() => void> = [];
  /** Deliveries this notifier has scheduled or is attempting: never two attempts of one at once. */
  readonly #inHand = new Set<string>();
  #sweep: NodeJS.Timeout | undefined;
  #running = 0;
  #stopped = false;

  constructor(options: WebhookNotifierOptions) {
    const settings = checkedNotifierSettings(options);
    this.#options = options;
    this.#settings = settings;
  }

  /** Resumes the deliveries a previous process left pending (each at its next attempt time). */
  async start(): Promise<void> {
    const { claims } = this.#options;
    if (claims !== undefined) {
      this.#sweep = setInterval(() => this.#track(this.#pickUp(claims)), claims.sweepIntervalMs);
      this.#sweep.unref();
      await this.#pickUp(claims);
      return;
    }
    const pending = await this.#options.store.listPendingWebhookDeliveries();
    for (const delivery of pending) this.#scheduleAt(delivery);
  }

  /** Schedules the due deliveries nobody holds a live claim on (each attempt claims it first). */
  async #pickUp(claims: WebhookClaims): Promise<void> {
    if (this.#stopped) return;
    const ids = new Set(await claims.claimable(100));
    if (ids.size === 0) return;
    for (const delivery of await this.#options.store.listPendingWebhookDeliveries())
      if (ids.has(delivery.id)) this.#scheduleAt(delivery);
  }

  /**
   * Queues the `hold.created` webhook of `event` for its tenant; returns at once, false when the
   * tenant has no webhook (or the notifier stopped). Never throws: failures are recorded on the
   * delivery, or reported to `onError` when the store itself fails.
   */
  notifyHold(event: HoldCreatedEvent): boolean {
    if (this.#stopped) return false;
    const tenantId = event.session.tenantId;
    let target: WebhookTarget | undefined;
    let origin: string;
    try {
      target = this.#target(tenantId);
      if (target === undefined) return false;
      origin = checkWebhookTarget(tenantId, target);
    } catch (error) {
      this.#report(error);
      return false;
    }
    const payload = buildHoldWebhookPayload(event, this.#options.consoleUrl);
    this.#track(
      this.#options.store
        .recordWebhookDelivery({
          tenantId,
          event: HOLD_CREATED_EVENT,
          holdId: event.hold.id,
          url: origin,
          payload,
        })
        .then((delivery) => this.#scheduleAt(delivery)),
    );
    return true;
  }

  /** Resolves once nothing is being recorded or sent and no retry is waiting. */
  async whenIdle(): Promise<void> {
    while (this.#work.size > 0 || this.#timers.size > 0) {
      await Promise.race([...this.#work, new Promise((resolve) => setTimeout(resolve, 20))]);
    }
  }

  /**
   * Stops: no new webhooks, no new attempts. Waits for deliveries being recorded and requests in
   * flight (each bounded by `timeoutMs`); everything else stays pending in the store, due at its
   * next attempt, for `start()` to resume.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#sweep !== undefined) clearInterval(this.#sweep);
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const release of this.#queue.splice(0)) release();
    while (this.#work.size > 0) await Promise.allSettled([...this.#work]);
  }

  #target(tenantId: string): WebhookTarget | undefined {
    const { targets } = this.#options;
    return typeof targets === 'function'
      ? targets(tenantId)
      : Object.hasOwn(targets, tenantId)
        ? targets[tenantId]
        : undefined;
  }

  #track(work: Promise<unknown>): void {
    const tracked = work.catch((error: unknown) => this.#report(error));
    this.#work.add(tracked);
    void tracked.finally(() => this.#work.delete(tracked));
  }

  #report(error: unknown): void {
    const reported = error instanceof Error ? error : new NovarchError(String(error));
    try {
      this.#options.onError?.(reported);
    } catch {
      // A listener that throws must not break delivery.
    }
  }

  #scheduleAt(delivery: WebhookDeliveryRecord, retry = false): void {
    if (retry) this.#inHand.delete(delivery.id);
    if (this.#stopped || delivery.status !== 'pending' || this.#inHand.has(delivery.id)) return;
    this.#inHand.add(delivery.id);
    const due = delivery.nextAttemptAt === undefined ? Date.now() : Date.parse(delivery.nextAttemptAt);
    const timer = setTimeout(
      () => {
        this.#timers.delete(timer);
        this.#track(this.#attempt(delivery));
      },
      Math.max(0, due - Date.now()),
    );
    // Pending deliveries are in the store: they need not keep the process alive.
    timer.unref();
    this.#timers.add(timer);
  }

  async #slot(): Promise<boolean> {
    if (this.#running < this.#settings.concurrency) {
      this.#running++;
      return true;
    }
    await new Promise<void>((resolve) => this.#queue.push(resolve));
    if (this.#stopped) return false;
    this.#running++;
    return true;
  }

  #release(): void {
    this.#running--;
    this.#queue.shift()?.();
  }

  async #attempt(delivery: WebhookDeliveryRecord): Promise<void> {
    if (this.#stopped || !(await this.#slot())) return;
    // Out of hand once done, unless its next attempt was scheduled (then it stays in hand).
    let rescheduled = false;
    try {
      // Held by another server (it sends this one), or no longer pending: nothing to do here. The
      // claim outlasts the request (its timeout), so it cannot expire while this one is sent.
      const claimMs = this.#settings.timeoutMs + CLAIM_MARGIN_MS;
      if (this.#options.claims !== undefined && !(await this.#options.claims.claim(delivery.id, claimMs)))
        return;
      const attempt = delivery.attempts + 1;
      let target: WebhookTarget | undefined;
      try {
        target = this.#target(delivery.tenantId);
        if (target !== undefined) checkWebhookTarget(delivery.tenantId, target);
      } catch (error) {
        const reason = errorMessage(error);
        await this.#options.store.recordWebhookAttempt(delivery.id, { status: 'failed', error: reason });
        return;
      }
      if (target === undefined) {
        await this.#options.store.recordWebhookAttempt(delivery.id, {
          status: 'failed',
          error: `tenant "${delivery.tenantId}" has no webhook configured any more`,
        });
        return;
      }
      const outcome = await deliverWebhook({
        target,
        deliveryId: delivery.id,
        event: delivery.event,
        // The delivery id inside the signed body, first: receivers dedupe on a signed value.
        body: JSON.stringify({ deliveryId: delivery.id, ...asObject(delivery.payload) }),
        timeoutMs: this.#settings.timeoutMs,
        ...(this.#options.fetch ? { fetch: this.#options.fetch } : {}),
      });
      const httpStatus = outcome.httpStatus === undefined ? {} : { httpStatus: outcome.httpStatus };
      let updated: WebhookDeliveryRecord;
      if (outcome.delivered) {
        updated = await this.#options.store.recordWebhookAttempt(delivery.id, {
          status: 'delivered',
          ...httpStatus,
        });
      } else if (attempt >= this.#settings.maxAttempts) {
        updated = await this.#options.store.recordWebhookAttempt(delivery.id, {
          status: 'failed',
          ...httpStatus,
          error: `${outcome.error}; gave up after ${attempt} attempt${attempt === 1 ? '' : 's'}`,
        });
      } else {
        updated = await this.#options.store.recordWebhookAttempt(delivery.id, {
          status: 'pending',
          ...httpStatus,
          error: outcome.error,
          nextAttemptAt: new Date(Date.now() + this.#backoffMs(attempt)).toISOString(),
        });
      }
      this.#scheduleAt(updated, true);
      rescheduled = true;
    } finally {
      if (!rescheduled) this.#inHand.delete(delivery.id);
      this.#release();
    }
  }

  /** The wait after attempt `attempt` failed: doubling from `initialBackoffMs`, capped, then 50-100 % of it. */
  #backoffMs(attempt: number): number {
    const { initialBackoffMs, maxBackoffMs } = this.#settings;
    const full = Math.min(maxBackoffMs, initialBackoffMs * 2 ** (attempt - 1));
    return Math.round(full * (0.5 + (this.#options.random ?? Math.random)() / 2));
  }
}

/** How much longer than a request's timeout a claim lasts (ms): the recording of its outcome. */
const CLAIM_MARGIN_MS = 5_000;

function asObject(payload: unknown): Record<string, unknown> {
  return typeof payload === 'object' && payload !== null && !Array.isArray(payload)
    ? Object.fromEntries(Object.entries(payload))
    : { payload };
}
