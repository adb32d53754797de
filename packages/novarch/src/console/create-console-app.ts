import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getCookie } from 'hono/cookie';
import type { BlankSchema } from 'hono/types';
import {
  type FailedAuthLimitOptions,
  failedAuthLimiter,
  type SignInLimiter,
} from '../identity/failed-auth-limiter.js';
import { type ConsoleContext, type ConsoleEnv, SESSION_COOKIE, wantsJson } from './console-context.js';
import type { ConsoleDeps } from './console-deps.js';
import { ConsoleRequestError } from './console-errors.js';
import { securityHeaders } from './console-security.js';
import {
  type ConsoleSessionOptions,
  type ConsoleSessionRecords,
  MemoryConsoleSessionStore,
  StoredConsoleSessionStore,
} from './console-session-store.js';
import { registerAssetRoutes } from './routes/asset-routes.js';
import { registerAuditRoutes } from './routes/audit-routes.js';
import { registerEventsRoute } from './routes/events-route.js';
import { requireSession } from './routes/require-session.js';
import { registerRulesRoutes } from './routes/rules-routes.js';
import { registerSessionRoutes } from './routes/session-routes.js';
import { registerSignInRoutes } from './routes/sign-in-routes.js';
import { registerTriageRoutes } from './routes/triage-routes.js';
import { registerWebhookRoutes } from './routes/webhook-routes.js';
import { html } from './views/markup.js';
import { renderLayout, renderMessage } from './views/render-layout.js';

/** How the console is served (all optional). */
export interface ConsoleAppOptions {
  /**
   * The origin operators' browsers reach the console at, e.g. `https://novarch.example.com`
   * behind a TLS-terminating proxy. State changes must come from it; `https:` makes the cookie
   * `Secure`. Default: each request's own origin.
   */
  publicOrigin?: string;
  /** `Secure` on the session cookie: `auto` (default) when the console is reached over https. */
  secureCookie?: boolean | 'auto';
  session?: ConsoleSessionOptions;
  /**
   * Where sessions are kept: with records (the server passes its `IdentityStore`) they are in
   * the store, survive a restart and are shared by every process on it; without, in this
   * process's memory.
   */
  sessionRecords?: ConsoleSessionRecords;
  /**
   * Failed sign-ins allowed per client address (default 10 per 5 minutes, 10 000 addresses
   * tracked, `X-Forwarded-For` not trusted), or a limiter shared with other surfaces (the API's
   * bearer auth). Past the limit `POST /console/sign-in` answers 429 with `Retry-After` and
   * verifies nothing.
   */
  signInLimit?: FailedAuthLimitOptions | SignInLimiter;
  /** How often live pages look for new and decided holds, in ms (default 1000). */
  eventsPollMs?: number;
  /** Ends the live event streams (the server's shutdown signal). */
  shutdown?: AbortSignal;
  /** Where unexpected errors (500s) are reported; never the browser. Default stderr. */
  log?: (message: string) => void;
  /** The clock of the session expiry and of the sign-in limit (tests). */
  clock?: () => number;
}

/** The console's Hono app; every route is under `/console`. */
export type ConsoleApp = Hono<ConsoleEnv, BlankSchema, '/console'>;

/** The largest form the console accepts. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * The operator console, a Hono app whose routes all live under `/console` (mount it with
 * `app.route('/', createConsoleApp(deps))`). Server-rendered pages, one script and one stylesheet
 * from `/console/assets/`, a strict CSP, an HttpOnly SameSite=Strict session cookie holding an
 * opaque id, and CSRF and Origin checks on every state change.
 */
export function createConsoleApp(deps: ConsoleDeps, options: ConsoleAppOptions = {}): ConsoleApp {
  const context: ConsoleContext = {
    deps,
    sessions:
      options.sessionRecords === undefined
        ? new MemoryConsoleSessionStore(options.session, options.clock)
        : new StoredConsoleSessionStore(options.sessionRecords, options.session, options.clock),
    signInLimiter: failedAuthLimiter(options.signInLimit, options.clock),
    publicOrigin: options.publicOrigin === undefined ? undefined : new URL(options.publicOrigin).origin,
    secureCookie: options.secureCookie ?? 'auto',
    eventsPollMs: options.eventsPollMs ?? 1000,
    now: () => new Date(),
    shutdown: options.shutdown ?? new AbortController().signal,
  };
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const app = new Hono<ConsoleEnv>().basePath('/console');
  app.use('*', securityHeaders());
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new ConsoleRequestError(
          413,
          `Refused: a console form is at most ${MAX_BODY_BYTES / 1024} KiB.`,
        );
      },
    }),
  );
  app.onError(async (error, c) => {
    const known = error instanceof ConsoleRequestError;
    const status = known ? error.status : 500;
    if (known && error.retryAfterSeconds !== undefined)
      c.header('Retry-After', String(error.retryAfterSeconds));
    if (!known) log(`novarch console: ${c.req.method} ${c.req.path} failed: ${error.stack ?? String(error)}`);
    const message = known ? error.message : 'Internal error in the console: the server log has the details.';
    if (wantsJson(c) || c.req.path.endsWith('/events')) {
      return c.json({ type: 'about:blank', title: titleOf(status), status, detail: message }, status, {
        'Content-Type': 'application/problem+json',
      });
    }
    const session = await context.sessions.lookup(getCookie(c, SESSION_COOKIE)).catch(() => undefined);
    return c.html(
      renderLayout({
        page: 'error',
        title: titleOf(status),
        body: html`${renderMessage('error', message)}<p><a href="/console">Back to the triage queue</a></p>`,
        ...(session?.found === 'active'
          ? { viewer: { operator: session.session.operator, csrfToken: session.session.csrfToken } }
          : {}),
      }),
      status,
    );
  });
  registerAssetRoutes(app);
  registerSignInRoutes(app, context);
  // Everything registered from here on needs a signed-in operator (and CSRF on state changes).
  app.use('*', requireSession(context));
  registerTriageRoutes(app, context);
  registerEventsRoute(app, context);
  registerSessionRoutes(app, context);
  registerAuditRoutes(app, context);
  registerWebhookRoutes(app, context);
  registerRulesRoutes(app, context);
  app.notFound((c) => {
    throw new ConsoleRequestError(404, `No console page ${c.req.path}.`);
  });
  return app;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Content Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

function titleOf(status: number): string {
  return TITLES[status] ?? 'Error';
}
