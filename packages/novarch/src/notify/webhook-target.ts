import { NovarchError } from '../errors.js';

/** Where a tenant's webhooks go, and the secret they are signed with. */
export interface WebhookTarget {
  /** An `http:` or `https:` URL. Only its origin is ever stored or shown (its path may be a secret). */
  url: string;
  /** The HMAC-SHA256 key, shared with the receiver; at least 16 characters. Never stored or shown. */
  secret: string;
}

/** The shortest secret a target may have. */
export const MIN_WEBHOOK_SECRET_LENGTH = 16;

/** A webhook target that cannot be used; the message names the tenant and never the secret. */
export class WebhookConfigError extends NovarchError {
  override name = 'WebhookConfigError';
}

/** The prefix of a tenant's webhook secret variable: `NOVARCH_WEBHOOK_SECRET_ACME` for tenant acme. */
export const WEBHOOK_SECRET_ENV_PREFIX = 'NOVARCH_WEBHOOK_SECRET_';

/**
 * The variable that holds a tenant's webhook secret: `NOVARCH_WEBHOOK_SECRET_` + the id in
 * capitals, `.` and `-` as `_`. Secrets come from there only, never from a flag or a file.
 */
export function webhookSecretVariable(tenantId: string): string {
  return `${WEBHOOK_SECRET_ENV_PREFIX}${tenantId.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * What is wrong with a webhook URL, said of the URL (`must be http: or https:, got ftp:.`), or
 * undefined when it can be used. `checkWebhookTarget` and the `webhook.url` of novarch.yaml share it.
 */
export function webhookUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a valid URL; expected e.g. https://hooks.example.com/novarch.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return `must be http: or https:, got ${url.protocol}.`;
  if (url.username !== '' || url.password !== '')
    return 'must not carry a user or password; the signature authenticates the request.';
  return undefined;
}

/**
 * Checks a tenant's target and returns its URL's origin (what is stored and shown). Throws a
 * `WebhookConfigError` saying what to fix.
 */
export function checkWebhookTarget(tenantId: string, target: WebhookTarget): string {
  const where = `the webhook of tenant "${tenantId}"`;
  const problem = webhookUrlProblem(target.url);
  if (problem !== undefined) throw new WebhookConfigError(`${where}: url ${problem}`);
  if (typeof target.secret !== 'string' || target.secret.length < MIN_WEBHOOK_SECRET_LENGTH) {
    throw new WebhookConfigError(
      `${where}: secret must be at least ${MIN_WEBHOOK_SECRET_LENGTH} characters (e.g. the output of \`openssl rand -hex 32\`).`,
    );
  }
  return new URL(target.url).origin;
}

/** `text` with the target's URL (whole, and its path and query) and secret taken out. */
export function withoutTargetSecrets(text: string, target: WebhookTarget): string {
  let clean = text;
  const hide = (secret: string) => {
    if (secret.length >= 4) clean = clean.split(secret).join('[redacted]');
  };
  hide(target.secret);
  hide(target.url);
  try {
    const url = new URL(target.url);
    if (url.pathname !== '/') hide(url.pathname);
    hide(url.search);
  } catch {
    // An invalid URL was refused before any request; nothing more to hide.
  }
  return clean;
}
