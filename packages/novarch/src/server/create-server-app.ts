import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import { SESSION_SECRET_HEADER } from '../wire/session-secret-header.js';
import { authenticateRequest } from './authenticate-request.js';
import { mountConsole, type ServerConsoleOptions } from './mount-console.js';
import { ProblemError } from './problem-error.js';
import { problemOf, problemResponse, zodIssues } from './problem-response.js';
import { MAX_BODY_BYTES, readJsonBody } from './read-json-body.js';
import type { RouteSpec } from './route-spec.js';
import { SERVER_ROUTES } from './routes/server-routes.js';
import type { ServerServices } from './server-services.js';
import { SessionScopeCache } from './session-scope-cache.js';
import { SLACK_INTERACTIONS_PATH } from './slack-approvals.js';
import { TenantScopedStore } from './tenant-scoped-store.js';

export interface ServerAppOptions {
  /** Where unexpected errors (500s) are reported; never the client. Default stderr. */
  log?: (message: string) => void;
  /** The operator console at `/console` (served unless `false`). */
  console?: ServerConsoleOptions | false;
  /** Slack's button clicks, at `POST /slack/interactions` (absent: no such route). */
  slack?: { handleInteraction(request: Request): Promise<Response> };
}

/**
 * The Novarch HTTP API as a Hono app (no port: tests call `app.request()`; `startNovarchServer`
 * serves it on Node). Every API route is declared in `routes/`, authenticated and validated here;
 * the operator console is mounted at `/console` (its own sign-in, cookies and CSRF checks).
 */
export function createServerApp(services: ServerServices, options: ServerAppOptions = {}): Hono {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const app = new Hono();
  const scopes = new SessionScopeCache();
  // Before any route reads a body: a larger one is refused unread (413), so one client's huge
  // body costs neither memory nor other tenants' time.
  app.use(
    '/v1/*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (context) =>
        problemResponse(context, {
          type: 'about:blank',
          title: 'Content Too Large',
          status: 413,
          detail: `the request body is larger than ${MAX_BODY_BYTES} bytes: nothing of it was read or stored`,
        }),
    }),
  );
  for (const route of SERVER_ROUTES) register(app, route, services, scopes);
  const { slack } = options;
  // Signed by Slack, not bearer-authenticated: the handler verifies the signature first.
  if (slack !== undefined)
    app.post(SLACK_INTERACTIONS_PATH, (context) => slack.handleInteraction(context.req.raw));
  if (options.console !== false) mountConsole(app, services, { log, ...options.console });
  app.notFound((context) =>
    problemResponse(context, {
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: `no route ${context.req.method} ${new URL(context.req.url).pathname}: the routes are listed in /openapi.json`,
    }),
  );
  app.onError((error, context) => {
    const problem = problemOf(error);
    if (problem.status >= 500 && problem.status !== 503)
      log(
        `novarch serve: ${context.req.method} ${new URL(context.req.url).pathname} failed: ${describe(error)}`,
      );
    return problemResponse(context, problem);
  });
  return app;
}

function register(app: Hono, route: RouteSpec, services: ServerServices, scopes: SessionScopeCache): void {
  const path = route.path.replace(/\{([A-Za-z]+)\}/g, ':$1');
  app[route.method](path, async (context) => {
    const principal = await authenticateRequest(context, route.access, services);
    const params =
      route.params === undefined
        ? undefined
        : parse(route.params, withoutNul(context.req.param(), 'path'), 'path');
    const query =
      route.query === undefined
        ? undefined
        : parse(route.query, withoutNul(context.req.query(), 'query'), 'query');
    const body =
      route.body === undefined ? undefined : parse(route.body, await readJsonBody(context.req.raw), 'body');
    const text = route.textBody === undefined ? undefined : await context.req.text();
    const result = await route.handle({
      params,
      query,
      body,
      ...(text === undefined ? {} : { text }),
      principal,
      scoped:
        principal === undefined
          ? undefined
          : new TenantScopedStore(
              services.store,
              principal,
              scopes,
              context.req.header(SESSION_SECRET_HEADER) ?? undefined,
            ),
      services,
      context,
    });
    if (result instanceof Response) return result;
    return context.json(result, route.status ?? 200);
  });
}

/** The path or query parameters, unless one holds a NUL character (400: no store keeps it). */
function withoutNul(values: Record<string, string>, root: string): Record<string, string> {
  for (const [name, value] of Object.entries(values))
    if (value.includes('\u0000'))
      throw new ProblemError(
        400,
        'Bad Request',
        `${root}.${name}: contains a NUL character (\\u0000): remove it`,
        [{ path: `${root}.${name}`, message: 'contains a NUL character (\\u0000): remove it' }],
      );
  return values;
}

function parse(schema: z.ZodType | undefined, value: unknown, root: string): unknown {
  if (schema === undefined) return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = zodIssues(parsed.error, root);
  throw new ProblemError(
    400,
    'Bad Request',
    issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '),
    issues,
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
