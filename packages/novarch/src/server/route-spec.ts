import type { Context } from 'hono';
import type { z } from 'zod';
import type { Principal } from '../identity/principal.js';
import type { ServerServices } from './server-services.js';
import type { TenantScopedStore } from './tenant-scoped-store.js';

/**
 * Who may call a route: anyone (`public`), any valid credential (`authenticated`), an agent key
 * (`agent`), an operator token of either role (`operator`), an admin token (`admin`).
 */
export type Access = 'public' | 'authenticated' | 'agent' | 'operator' | 'admin';

/** What a route's handler receives: the validated parts of the request, and who sent it. */
export interface RouteRequest<Params, Query, Body> {
  params: Params;
  query: Query;
  body: Body;
  /** The text body of a route with `textBody` (undefined otherwise). */
  text?: string;
  /** Undefined on public routes only. */
  principal: Principal | undefined;
  /** The store as this credential sees it (undefined on public routes). */
  scoped: TenantScopedStore | undefined;
  services: ServerServices;
  context: Context;
}

/**
 * One route, declared once: the app registers it and the OpenAPI document describes it from the
 * same declaration, so the two cannot drift apart (the OpenAPI test checks it all the same).
 */
export interface RouteSpec<
  Params extends z.ZodType = z.ZodType,
  Query extends z.ZodType = z.ZodType,
  Body extends z.ZodType = z.ZodType,
> {
  method: 'get' | 'post';
  /** OpenAPI form: `/v1/holds/{holdId}`. */
  path: string;
  operationId: string;
  summary: string;
  access: Access;
  params?: Params;
  query?: Query;
  body?: Body;
  /**
   * A body that is text, not JSON (a rules file's YAML): the handler reads it from
   * `request.text`. Exclusive with `body`.
   */
  textBody?: { contentType: string; description: string };
  /** Default 200. */
  status?: 200 | 201;
  /** The JSON response body, or the `data:` of each event of a `text/event-stream`. */
  response: { json: z.ZodType } | { eventStream: z.ZodType };
  handle(request: RouteRequest<z.output<Params>, z.output<Query>, z.output<Body>>): Promise<unknown>;
}

/** Declares a route, inferring its handler's types from its schemas. */
export function defineRoute<
  Params extends z.ZodType = z.ZodUndefined,
  Query extends z.ZodType = z.ZodUndefined,
  Body extends z.ZodType = z.ZodUndefined,
>(spec: RouteSpec<Params, Query, Body>): RouteSpec {
  // A method's parameters are checked bivariantly: the general shape accepts the specific one.
  return spec;
}
