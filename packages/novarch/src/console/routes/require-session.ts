import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { type ConsoleContext, type ConsoleEnv, SESSION_COOKIE, wantsJson } from '../console-context.js';
import { ConsoleRequestError } from '../console-errors.js';
import { checkCsrfToken, checkOrigin } from '../console-security.js';
import { signInUrl } from '../next-path.js';

/**
 * Lets only signed-in operators through. A page asked for without a session redirects to the
 * sign-in page (saying when the session expired or the token was revoked); anything else gets a
 * 401. Every state change (any method but GET and HEAD) must also come from the console's own
 * origin and carry the session's CSRF token.
 */
export function requireSession(context: ConsoleContext): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    const lookup = await context.sessions.lookup(getCookie(c, SESSION_COOKIE));
    let why: 'expired' | 'revoked' | undefined =
      lookup.found === 'expired' || lookup.found === 'revoked' ? lookup.found : undefined;
    if (lookup.found === 'active' && context.deps.findOperator !== undefined) {
      const operator = await context.deps.findOperator(lookup.session.operator.id);
      if (operator === undefined) {
        await context.sessions.delete(lookup.session.id);
        why = 'revoked';
      } else {
        // Grants changed since sign-in take effect at once.
        lookup.session.operator = operator;
      }
    }
    if (lookup.found !== 'active' || why !== undefined) {
      const page = c.req.method === 'GET' && !wantsJson(c) && !c.req.path.endsWith('/events');
      if (page) {
        // The page asked for is where sign-in returns to (a hold link opened signed out).
        const url = new URL(c.req.url);
        return c.redirect(signInUrl(why, `${url.pathname}${url.search}`), 303);
      }
      throw new ConsoleRequestError(401, signedOutMessage(why));
    }
    const { session } = lookup;
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      checkOrigin(c, context.publicOrigin);
      const header = c.req.header('X-CSRF-Token');
      const field = header === undefined ? await formField(c.req.parseBody(), '_csrf') : header;
      checkCsrfToken(session.csrfToken, field);
    }
    c.set('session', session);
    await next();
  };
}

/** Why a request without a usable session is refused. */
export function signedOutMessage(why: 'expired' | 'revoked' | undefined): string {
  if (why === 'expired') return 'Your console session expired: sign in again.';
  if (why === 'revoked') return 'You were signed out: your operator token is no longer valid.';
  return 'Not signed in: sign in to the console with your operator token.';
}

async function formField(body: Promise<Record<string, unknown>>, name: string): Promise<string | undefined> {
  const value = (await body.catch(() => ({}) as Record<string, unknown>))[name];
  return typeof value === 'string' ? value : undefined;
}
