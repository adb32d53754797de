import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from './webhook-signature.js';
import { type WebhookTarget, withoutTargetSecrets } from './webhook-target.js';

/** The outcome of one POST: the receiver's status, or why there was none. No secret in `error`. */
export type DeliveryOutcome =
  | { delivered: true; httpStatus: number }
  | { delivered: false; httpStatus?: number; error: string };

/** One webhook request. */
export interface WebhookRequest {
  target: WebhookTarget;
  deliveryId: string;
  event: string;
  body: string;
  timeoutMs: number;
  /** Aborts the request (the notifier stops). */
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

/**
 * POSTs one signed webhook. A 2xx answer delivers it; any other status, a redirect (never
 * followed: it would take the signed body elsewhere), a network error or no answer within
 * `timeoutMs` does not. Never throws.
 */
export async function deliverWebhook(request: WebhookRequest): Promise<DeliveryOutcome> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
  try {
    const response = await (request.fetch ?? fetch)(request.target.url, {
      method: 'POST',
      redirect: 'manual',
      signal,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Novarch-Webhook/1',
        'novarch-event': request.event,
        'novarch-delivery': request.deliveryId,
        [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: signWebhook(request.target.secret, request.body),
      },
      body: request.body,
    });
    // The body is not read: only the status counts. Cancelling frees the connection.
    await response.body?.cancel().catch(() => {});
    if (response.status >= 200 && response.status < 300)
      return { delivered: true, httpStatus: response.status };
    const redirect = response.status >= 300 && response.status < 400 ? ' (redirects are not followed)' : '';
    return { delivered: false, httpStatus: response.status, error: `HTTP ${response.status}${redirect}` };
  } catch (error) {
    const reason = timeout.aborted
      ? `no answer within ${request.timeoutMs} ms`
      : request.signal?.aborted
        ? 'the notifier stopped during the request'
        : describeNetworkError(error);
    return { delivered: false, error: withoutTargetSecrets(reason, request.target) };
  }
}

/** `fetch failed (connect ECONNREFUSED 127.0.0.1:9)`: the error and its cause, on one line. */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}
