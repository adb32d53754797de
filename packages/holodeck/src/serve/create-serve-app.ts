import { type Context, Hono } from 'hono';
import type { z } from 'zod';
import { checkRequestHost } from './check-request-host.js';
import { readJsonBody } from './read-body.js';
import type { RequestLogLine } from './request-log.js';
import { errorResponse, problemOf, problemResponse, ServeProblem, zodIssues } from './serve-problem.js';
import type { ServeRoute } from './serve-route.js';
import type { ServeServices } from './serve-services.js';

/** Options of the app beyond its services. */
export interface ServeAppOptions {
  /** One line per request. */
  log: (line: RequestLogLine) => void;
  /** Unexpected errors (500s), with their stack: the server's stderr, never the client. */
  logError: (message: string) => void;
  /** Put the user message in log lines (--log-content). */
  logContent?: boolean;
}

/**
 * The serve API as a Hono app (no port: tests may call `app.request()`). Every route is declared
 * once (`ServeRoute`), switched by its protocol, authenticated, size-limited and validated here;
 * every error is an `application/problem+json`, never a stack trace.
 */
export function createServeApp(
  services: ServeServices,
  routes: readonly ServeRoute[],
  options: ServeAppOptions,
): Hono {
  const app = new Hono();
  app.use('*', async (context, next) => {
    const started = Date.now();
    if (services.loopbackHosts)
      checkRequestHost(
        { allowedHosts: services.loopbackHosts, corsOrigins: services.corsOrigins },
        context.req.header('host'),
        context.req.header('origin'),
      );
    const cors = corsHeaders(context, services);
    if (context.req.method === 'OPTIONS' && cors) return new Response(null, { status: 204, headers: cors });
    await next();
    if (cors) for (const [name, value] of Object.entries(cors)) context.res.headers.set(name, value);
    const fields = logFieldsOf(context);
    const write = () =>
      options.log({
        time: new Date(started).toISOString(),
        method: context.req.method,
        route: fields.route ?? new URL(context.req.url).pathname,
        status: context.res.status,
        durationMs: Date.now() - started,
        ...fields,
      });
    const body = context.res.body;
    if (!context.res.headers.get('content-type')?.startsWith('text/event-stream') || !body) {
      write();
      return;
    }
    // A stream is logged when it ends, with the turn's usage and the whole duration.
    fields.stream = true;
    let logged = false;
    const once = () => {
      if (!logged) write();
      logged = true;
    };
    const reader = body.getReader();
    const relay = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          once();
          controller.close();
        } else controller.enqueue(value);
      },
      async cancel(reason) {
        once();
        await reader.cancel(reason);
      },
    });
    context.res = new Response(relay, { status: context.res.status, headers: context.res.headers });
  });
  for (const route of routes) {
    if (route.protocol !== 'core' && !services.protocols.has(route.protocol)) continue;
    register(app, route, services, options);
  }
  app.notFound(() =>
    problemResponse({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'no such route: the routes are listed in /openapi.json',
    }),
  );
  app.onError((error, context) => {
    const problem = problemOf(error);
    if (problem.status >= 500 && problem.status !== 503)
      options.logError(
        `holodeck serve: ${context.req.method} ${new URL(context.req.url).pathname} failed: ${error.stack ?? error.message}`,
      );
    return errorResponse(context, error);
  });
  return app;
}

const LOG_FIELDS = new WeakMap<Request, Partial<RequestLogLine>>();

function logFieldsOf(context: Context): Partial<RequestLogLine> {
  let fields = LOG_FIELDS.get(context.req.raw);
  if (!fields) {
    fields = {};
    LOG_FIELDS.set(context.req.raw, fields);
  }
  return fields;
}

function register(app: Hono, route: ServeRoute, services: ServeServices, options: ServeAppOptions): void {
  const path = route.path.replace(/\{([A-Za-z]+)\}/g, ':$1');
  app.on(route.method.toUpperCase(), path, async (context) => {
    const log = logFieldsOf(context);
    log.route = route.path;
    if (!route.public && services.phase() !== 'ready')
      throw new ServeProblem(
        503,
        services.phase() === 'closing'
          ? 'the server is shutting down: send the request to another instance'
          : 'the agent is still starting: retry when /ready answers 200',
        { retryAfterSeconds: 1 },
      );
    const owner = route.public ? 'anonymous' : authenticate(context, services);
    if (services.keys.enabled && !route.public) log.key = owner;
    const params = parse(route.params, context.req.param(), 'path');
    if (params && typeof params === 'object' && 'sessionId' in params && typeof params.sessionId === 'string')
      log.session = params.sessionId;
    let body: unknown;
    if (route.body !== undefined || route.rawBody !== undefined) {
      const json = await readJsonBody(context.req.raw, services.maxBodyBytes);
      body = route.body === undefined ? json : parse(route.body, json, 'body');
      if (
        options.logContent &&
        body &&
        typeof body === 'object' &&
        'message' in body &&
        typeof body.message === 'string'
      )
        log.content = body.message;
    }
    const result = await route.handle({ params, body, owner, services, context, log });
    if (result instanceof Response) return result;
    return context.json(result, route.status === 201 ? 201 : 200);
  });
}

/** The id of the request's API key; 401 without a valid Bearer token (when keys are configured). */
function authenticate(context: Context, services: ServeServices): string {
  if (!services.keys.enabled) return 'anonymous';
  const header = context.req.header('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1])
    throw new ServeProblem(
      401,
      'this route needs an API key: send Authorization: Bearer <key> (keys are made with holodeck serve keys create)',
    );
  const owner = services.keys.verify(match[1]);
  if (owner === undefined)
    throw new ServeProblem(
      401,
      'the API key is not one this server accepts: check the key, or create one with holodeck serve keys create',
    );
  return owner;
}

function parse(schema: z.ZodType | undefined, value: unknown, root: string): unknown {
  if (schema === undefined) return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = zodIssues(parsed.error, root);
  throw new ServeProblem(400, issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '), {
    issues,
  });
}

/** CORS headers for an allowed Origin (serve.cors.origins); none without the block. */
function corsHeaders(context: Context, services: ServeServices): Record<string, string> | undefined {
  const origin = context.req.header('origin');
  if (!origin || services.corsOrigins.length === 0) return undefined;
  if (!services.corsOrigins.includes('*') && !services.corsOrigins.includes(origin)) return undefined;
  return {
    'access-control-allow-origin': origin,
    vary: 'Origin',
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers':
      'authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id',
    'access-control-expose-headers': 'mcp-session-id, retry-after',
    'access-control-max-age': '600',
  };
}
