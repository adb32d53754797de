import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header that carries a webhook's signature: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Novarch-Signature';

/** How old a signature `verifyWebhookSignature` accepts by default, in seconds (5 minutes). */
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;

/** The HMAC-SHA256 (hex) of `${timestamp}.${body}` under `secret`: what `v1=` carries. */
function signatureOf(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

/**
 * The `Novarch-Signature` header value for `body` sent at `timestamp` (unix seconds, default
 * now): `t=<timestamp>,v1=<hex HMAC-SHA256 of "<timestamp>.<body>" under secret>`. Signing the
 * time with the body lets a receiver refuse replays of an old request.
 */
export function signWebhook(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  if (secret === '') throw new TypeError('A webhook secret must not be empty.');
  return `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;
}

/** What `verifyWebhookSignature` checks. */
export interface VerifyWebhookOptions {
  /** The tenant's secret; several while rotating (any one may match). */
  secret: string | readonly string[];
  /** The request body exactly as received (bytes decoded as UTF-8), before any JSON parsing. */
  body: string;
  /** The `Novarch-Signature` header as received (absent: not signed). */
  header: string | null | undefined;
  /** The oldest (and most future) signature time accepted, in seconds from now (default 300). */
  toleranceSeconds?: number;
  /** The time now in unix seconds (default the clock's). */
  now?: number;
}

/** The outcome of `verifyWebhookSignature`: valid with the signed time, or why not. */
export type WebhookVerification = { valid: true; timestamp: number } | { valid: false; reason: string };

/**
 * Checks a received webhook: the header parses, its time is within the tolerance, and one of its
 * `v1=` signatures is the HMAC of `t.body` under one of the secrets (compared in constant time).
 * Never throws for bad input, and no reason contains a secret.
 */
export function verifyWebhookSignature(options: VerifyWebhookOptions): WebhookVerification {
  const header = options.header?.trim();
  if (!header) return { valid: false, reason: `no ${WEBHOOK_SIGNATURE_HEADER} header` };
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value !== undefined && /^\d{1,15}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && value !== undefined && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === undefined)
    return { valid: false, reason: 'the signature header has no t=<unix seconds>' };
  if (signatures.length === 0)
    return { valid: false, reason: 'the signature header has no v1=<hex HMAC-SHA256>' };
  const tolerance = options.toleranceSeconds ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > tolerance) {
    return {
      valid: false,
      reason: `the signature is ${now - timestamp} s old; at most ${tolerance} s are accepted`,
    };
  }
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  for (const secret of secrets) {
    if (secret === '') continue;
    const expected = Buffer.from(signatureOf(secret, timestamp, options.body), 'hex');
    for (const signature of signatures) {
      if (timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return { valid: true, timestamp };
    }
  }
  return { valid: false, reason: 'no signature matches the body under the secret' };
}
