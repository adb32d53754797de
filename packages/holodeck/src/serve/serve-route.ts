import type { Context } from 'hono';
import type { z } from 'zod';
import type { ServeProtocol } from '../config/schema/serve-config-schema.js';
import type { RequestLogLine } from './request-log.js';
import type { ServeServices } from './serve-services.js';

/** What a route's handler receives: the validated parts of the request, and whose key sent it. */
export interface ServeRequest<Params, Body> {
  params: Params;
  body: Body;
  /** The id of the API key (`anonymous` on a server without keys; undefined on public routes). */
  owner: string;
  services: ServeServices;
  context: Context;
  /** Fields the route adds to the request's log line (session, tokens, cost). */
  log: Partial<RequestLogLine>;
}

/**
 * One route, declared once: the app registers it and `/openapi.json` describes it from the same
 * declaration (the idea of Novarch's `server/route-spec.ts`). `protocol` is the switch that turns
 * it off (`serve.protocols`, `--protocols`); `core` routes are always on.
 */
export interface ServeRoute<Params extends z.ZodType = z.ZodType, Body extends z.ZodType = z.ZodType> {
  protocol: ServeProtocol | 'core';
  method: 'get' | 'post' | 'delete';
  /** OpenAPI form: `/v1/sessions/{sessionId}`. */
  path: string;
  operationId: string;
  summary: string;
  /** Public routes need no API key (health, readiness, the OpenAPI document, the agent card). */
  public?: boolean;
  params?: Params;
  /** A JSON body, validated before the handler runs (400 with every field problem). */
  body?: Body;
  /**
   * A JSON body the handler reads itself (a protocol's SDK validates it, e.g. MCP's JSON-RPC); it is
   * still size-limited and checked to be JSON.
   */
  rawBody?: { description: string };
  /** Default 200. */
  status?: 200 | 201 | 204;
  /** The JSON response, an event stream (each event's `data:`), or both (by the Accept header). */
  response: { json?: z.ZodType; eventStream?: z.ZodType; description?: string };
  handle(request: ServeRequest<z.output<Params>, z.output<Body>>): Promise<unknown>;
}

/** Declares a route, inferring its handler's types from its schemas. */
export function defineServeRoute<
  Params extends z.ZodType = z.ZodUndefined,
  Body extends z.ZodType = z.ZodUndefined,
>(route: ServeRoute<Params, Body>): ServeRoute {
  // A method's parameters are checked bivariantly: the general shape accepts the specific one.
  return route;
}
