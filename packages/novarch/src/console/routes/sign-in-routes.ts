import type { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import { clientKeyOf } from '../../identity/failed-auth-limiter.js';
import { type ConsoleContext, type ConsoleEnv, SESSION_COOKIE } from '../console-context.js';
import { ConsoleRequestError } from '../console-errors.js';
import { checkCsrfToken, checkOrigin, isHttps } from '../console-security.js';
import { safeNextPath } from '../next-path.js';
import { renderSignIn } from '../views/render-sign-in.js';
import { signedOutMessage } from './require-session.js';

/** The sign-in form's fields. A token is at most a few hundred characters. */
const signInSchema = z
  .object({ token: z.string().trim().max(1024).optional(), next: z.string().max(2048).optional() })
  .loose();

/** The exact sentences of a failed sign-in (tested). */
export const SIGN_IN_MESSAGES = {
  empty: 'Enter your operator token.',
  agentKey: 'That is an agent key (nva_…): agents cannot sign in. Sign in with an operator token (nvo_…).',
  unknown: 'Sign-in failed: the operator token is unknown or revoked.',
} as const;

/** The sentence of a sign-in refused for too many failures from the client's address (tested). */
export function tooManySignInsMessage(retryAfterSeconds: number): string {
  return `Too many failed sign-ins from your address: try again in ${retryAfterSeconds} ${retryAfterSeconds === 1 ? 'second' : 'seconds'}.`;
}

/** `GET|POST /console/sign-in` and `POST /console/sign-out`. */
export function registerSignInRoutes(app: Hono<ConsoleEnv>, context: ConsoleContext): void {
  app.get('/sign-in', async (c) => {
    const next = safeNextPath(c.req.query('next'));
    if ((await context.sessions.lookup(getCookie(c, SESSION_COOKIE))).found === 'active')
      return c.redirect(next ?? '/console', 303);
    const why =
      c.req.query('expired') !== undefined
        ? 'expired'
        : c.req.query('revoked') !== undefined
          ? 'revoked'
          : undefined;
    const notice =
      c.req.query('signed-out') !== undefined
        ? 'You are signed out.'
        : why === undefined
          ? undefined
          : signedOutMessage(why);
    return c.html(
      renderSignIn({ ...(notice === undefined ? {} : { notice }), ...(next === undefined ? {} : { next }) }),
    );
  });

  app.post('/sign-in', async (c) => {
    // No session yet, so no CSRF token: the Origin check keeps other sites from signing an
    // operator in under an attacker's token (login CSRF). SameSite=Strict does the rest.
    checkOrigin(c, context.publicOrigin);
    // An address that failed too often is refused before its token is even read, let alone
    // verified; only failures count (a correct token does not reset the count).
    const limiter = context.signInLimiter;
    const client = clientKeyOf(c, limiter.trustForwardedFor);
    const limit = await limiter.check(client);
    if (limit.limited)
      throw new ConsoleRequestError(
        429,
        tooManySignInsMessage(limit.retryAfterSeconds),
        limit.retryAfterSeconds,
      );
    const form = signInSchema.safeParse(await c.req.parseBody());
    const token = form.success ? (form.data.token ?? '') : undefined;
    const next = safeNextPath(form.success ? form.data.next : undefined);
    const fail = async (status: 400 | 401, error: string) => {
      if (status === 401) await limiter.recordFailure(client);
      return c.html(renderSignIn({ error, ...(next === undefined ? {} : { next }) }), status);
    };
    if (token === '') return fail(400, SIGN_IN_MESSAGES.empty);
    if (token?.startsWith('nva_')) return fail(401, SIGN_IN_MESSAGES.agentKey);
    const operator = token === undefined ? undefined : await context.deps.verifyOperatorToken(token);
    if (operator === undefined) return fail(401, SIGN_IN_MESSAGES.unknown);
    // A fresh id at every sign-in (no session fixation); an older session of this browser ends.
    const previous = getCookie(c, SESSION_COOKIE);
    if (previous !== undefined) await context.sessions.delete(previous);
    const session = await context.sessions.create(operator);
    setCookie(c, SESSION_COOKIE, session.id, {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/console',
      secure: context.secureCookie === 'auto' ? isHttps(c, context.publicOrigin) : context.secureCookie,
    });
    return c.redirect(next ?? '/console', 303);
  });

  app.post('/sign-out', async (c) => {
    checkOrigin(c, context.publicOrigin);
    const lookup = await context.sessions.lookup(getCookie(c, SESSION_COOKIE));
    if (lookup.found !== 'active') throw new ConsoleRequestError(401, signedOutMessage(undefined));
    const body = await c.req.parseBody();
    checkCsrfToken(lookup.session.csrfToken, c.req.header('X-CSRF-Token') ?? stringField(body._csrf));
    await context.sessions.delete(lookup.session.id);
    deleteCookie(c, SESSION_COOKIE, { path: '/console' });
    return c.redirect('/console/sign-in?signed-out=1', 303);
  });
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
