import type { MiddlewareHandler } from 'hono';
import { SERVED_CSP } from './render-view-shell.js';

/** The host names the view server answers by default: loopback only. */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '[::1]', '::1'];

/** The host name of a Host header value (`127.0.0.1:4173` → `127.0.0.1`, `[::1]:80` → `[::1]`). */
function hostName(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  return value.split(':')[0] ?? '';
}

/**
 * Refuses a request addressed to a host not in `allowed` (a guard against DNS rebinding), and
 * gives every answer a strict CSP and no caching.
 */
export function viewHostGuard(allowed: readonly string[] | 'any'): MiddlewareHandler {
  return async (c, next) => {
    const host = hostName(c.req.header('host') ?? '');
    if (allowed !== 'any' && !allowed.includes(host)) {
      return c.text(
        `Refused: this server answers only requests addressed to ${allowed.join(', ')}, not "${host}" (a guard against DNS rebinding). To serve other hosts, start it with --host <address> --allow-remote.`,
        403,
      );
    }
    await next();
    c.header('Content-Security-Policy', SERVED_CSP);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', 'no-store');
  };
}
