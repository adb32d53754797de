import type { WebhookDeliveryStore } from '../model/novarch-store.js';
import type { WebhookClaims } from '../model/webhook-delivery.js';
import { checkWebhookTarget, WebhookConfigError, type WebhookTarget } from './webhook-target.js';

/** Defaults of `WebhookNotifierOptions`. */
export const WEBHOOK_DEFAULTS: Readonly<Record<NotifierSetting, number>> = {
  maxAttempts: 8,
  initialBackoffMs: 1_000,
  maxBackoffMs: 300_000,
  timeoutMs: 10_000,
  concurrency: 4,
};

const SETTINGS = ['maxAttempts', 'initialBackoffMs', 'maxBackoffMs', 'timeoutMs', 'concurrency'] as const;
export type NotifierSetting = (typeof SETTINGS)[number];

/** How a `WebhookNotifier` delivers. */
export interface WebhookNotifierOptions {
  /** Where deliveries and their attempts are recorded (the server's store). */
  store: WebhookDeliveryStore;
  /** Each tenant's target (tenants without one get no webhook), or a look-up asked at each attempt. */
  targets: Readonly<Record<string, WebhookTarget>> | ((tenantId: string) => WebhookTarget | undefined);
  /** The console's base URL, e.g. `https://novarch.example.com/console`; the payload links to `${consoleUrl}/holds/${id}`. */
  consoleUrl: string;
  /** Attempts before a delivery is given up (`failed`), default 8. */
  maxAttempts?: number;
  /** The wait after the first failed attempt, in ms (default 1000); it doubles per attempt, with jitter. */
  initialBackoffMs?: number;
  /** The longest wait between attempts, in ms (default 300000). */
  maxBackoffMs?: number;
  /** How long one request may take, in ms (default 10000). */
  timeoutMs?: number;
  /** How many requests may be in flight at once (default 4). */
  concurrency?: number;
  /** Told of failures that have no delivery row to show them (the store could not be written). */
  onError?: (error: Error) => void;
  /** The jitter's random source, in [0, 1) (default `Math.random`). */
  random?: () => number;
  /** The HTTP client (default the global `fetch`). */
  fetch?: typeof fetch;
  /**
   * Several servers share the store: each attempt is made under the delivery's claim, and
   * deliveries nobody holds (a server that died, or retries due) are picked up every
   * `claims.sweepIntervalMs`. Absent: this notifier is the store's only one.
   */
  claims?: WebhookClaims;
}

function checkCount(name: string, value: number | undefined, minimum: number): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < minimum)) {
    throw new WebhookConfigError(`${name} must be a whole number ≥ ${minimum}; got ${String(value)}.`);
  }
}

/**
 * The numeric settings of `options` with the defaults, each checked, once the console URL and the
 * targets are checked too; a `WebhookConfigError` says what is wrong.
 */
export function checkedNotifierSettings(
  options: WebhookNotifierOptions,
): Readonly<Record<NotifierSetting, number>> {
  const settings = { ...WEBHOOK_DEFAULTS, ...definedOnly(options) };
  checkCount('maxAttempts', settings.maxAttempts, 1);
  checkCount('initialBackoffMs', settings.initialBackoffMs, 0);
  checkCount('maxBackoffMs', settings.maxBackoffMs, settings.initialBackoffMs);
  checkCount('timeoutMs', settings.timeoutMs, 1);
  checkCount('concurrency', settings.concurrency, 1);
  let consoleUrl: URL;
  try {
    consoleUrl = new URL(options.consoleUrl);
  } catch {
    throw new WebhookConfigError(
      `consoleUrl is not a valid URL; expected the console's address, e.g. https://novarch.example.com/console.`,
    );
  }
  if (consoleUrl.protocol !== 'https:' && consoleUrl.protocol !== 'http:') {
    throw new WebhookConfigError(`consoleUrl must be http: or https:, got ${consoleUrl.protocol}.`);
  }
  if (typeof options.targets !== 'function') {
    for (const [tenantId, target] of Object.entries(options.targets)) checkWebhookTarget(tenantId, target);
  }
  return settings;
}

/** The numeric settings given, without the undefined ones (so defaults apply). */
function definedOnly(options: WebhookNotifierOptions): Partial<Record<NotifierSetting, number>> {
  const picked: Partial<Record<NotifierSetting, number>> = {};
  for (const key of SETTINGS) {
    const value = options[key];
    if (value !== undefined) picked[key] = value;
  }
  return picked;
}
