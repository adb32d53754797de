import { timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { ConsoleRequestError } from './console-errors.js';

/**
 * Scripts, styles, images and connections only from the console itself; no inline script or
 * style (so agent text that slipped through escaping still could not run), no framing, forms
 * only to the console.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** The security headers of every console response. */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('X-Frame-Options', 'DENY');
    // `same-origin` (not `no-referrer`): with no referrer, Chromium sends `Origin: null` on form posts.
    c.header('Referrer-Policy', 'same-origin');
    c.header('Cross-Origin-Opener-Policy', 'same-origin');
    c.header('Cross-Origin-Resource-Policy', 'same-origin');
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  };
}

/** Whether the console is reached over https (then its cookie is `Secure`). */
export function isHttps(c: Context, publicOrigin: string | undefined): boolean {
  return new URL(publicOrigin ?? c.req.url).protocol === 'https:';
}

/**
 * Refuses a state change that does not come from the console's own pages: the browser's `Origin`
 * must be the console's origin (`publicOrigin`, else the request's own), and `Sec-Fetch-Site`,
 * when sent, must be `same-origin`. Non-browser clients must send `Origin` too.
 */
export function checkOrigin(c: Context, publicOrigin: string | undefined): void {
  const origin = c.req.header('Origin');
  if (origin === undefined || origin === '') {
    throw new ConsoleRequestError(
      403,
      "Refused: the request has no Origin header. State changes are accepted only from the console's own pages.",
    );
  }
  const expected = new URL(publicOrigin ?? c.req.url).origin;
  const site = c.req.header('Sec-Fetch-Site');
  if (origin !== expected || (site !== undefined && site !== 'same-origin')) {
    throw new ConsoleRequestError(
      403,
      "Refused: the request comes from another site. State changes are accepted only from the console's own pages.",
    );
  }
}

/** Refuses a state change whose CSRF token (form field or header) is not the session's. */
export function checkCsrfToken(expected: string, provided: string | undefined): void {
  const a = Buffer.from(expected);
  const b = Buffer.from(provided ?? '');
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new ConsoleRequestError(
      403,
      "Refused: the form's CSRF token is missing or does not match this session. Reload the page and try again.",
    );
  }
}
