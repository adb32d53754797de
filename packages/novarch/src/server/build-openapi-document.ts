import { z } from 'zod';
import { novarchVersion } from '../novarch-version.js';
import { ProblemSchema } from '../wire/identity-schemas.js';
import type { RouteSpec } from './route-spec.js';

/** JSON Schema of a zod schema, inline (OpenAPI 3.1 uses JSON Schema 2020-12 as is). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return withOptionalUnknowns(rest);
}

/**
 * A field of any value (`z.unknown()`: a tool's input or output) may be absent from the JSON when
 * it is undefined, so it is never `required`.
 */
function withOptionalUnknowns(node: Record<string, unknown>): Record<string, unknown> {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== 'object' || value === null) return value;
    const object: Record<string, unknown> = Object.fromEntries(
      Object.entries(value).map(([key, child]) => [key, walk(child)]),
    );
    const properties = object.properties;
    if (Array.isArray(object.required) && typeof properties === 'object' && properties !== null) {
      const anyValue = new Set(
        Object.entries(properties)
          .filter(
            ([, child]) => typeof child === 'object' && child !== null && Object.keys(child).length === 0,
          )
          .map(([key]) => key),
      );
      object.required = object.required.filter((key) => !anyValue.has(String(key)));
    }
    return object;
  };
  return z.record(z.string(), z.unknown()).parse(walk(node));
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): Record<string, unknown>[] {
  if (schema === undefined) return [];
  const object = jsonSchema(schema, 'input');
  const properties = z
    .record(z.string(), z.record(z.string(), z.unknown()))
    .catch({})
    .parse(object.properties);
  const required = new Set(z.array(z.string()).catch([]).parse(object.required));
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: property,
  }));
}

const PROBLEM_DESCRIPTIONS: Record<string, string> = {
  '400':
    'the request does not match its schema, or the operation cannot be done as asked (detail says how to fix it)',
  '401': 'no credential, or one that is unknown or revoked',
  '403': 'the credential may not do this (an agent key deciding, another tenant, a tenant not served here)',
  '404': 'no such id visible to this credential (ids of another tenant included)',
  '409':
    'refused: the hold was already decided or nothing waits on it, the session already killed, the action already refused or run (first verdict wins)',
  '413': 'the body is larger than 8 MiB (8388608 bytes): refused unread (on every /v1 route), nothing stored',
  '431':
    "the request's headers are larger than Node's limit (16 KiB): answered by the HTTP server before any route, with no body",
  '503': 'the store failed: the agent refuses the call (fail-closed)',
  '500': 'the server failed (logged on its side; no detail is sent)',
};

function problems(route: RouteSpec): Record<string, unknown> {
  // 413 on every /v1 route: a body too large is refused before the route is known to take none.
  const statuses =
    route.access === 'public' ? ['500'] : ['400', '401', '403', '404', '409', '413', '500', '503'];
  const problem = jsonSchema(ProblemSchema, 'output');
  return {
    ...Object.fromEntries(
      statuses.map((status) => [
        status,
        {
          description: PROBLEM_DESCRIPTIONS[status],
          content: { 'application/problem+json': { schema: problem } },
        },
      ]),
    ),
    // No content: Node answers it before the request reaches the app.
    '431': { description: PROBLEM_DESCRIPTIONS['431'] },
  };
}

function success(route: RouteSpec): Record<string, unknown> {
  const status = String(route.status ?? 200);
  if ('eventStream' in route.response)
    return {
      [status]: {
        description:
          'a text/event-stream; each event is named by its type and its data is this JSON object (a `ready` event opens the stream)',
        content: { 'text/event-stream': { schema: jsonSchema(route.response.eventStream, 'output') } },
      },
    };
  return {
    [status]: {
      description: 'success',
      content: { 'application/json': { schema: jsonSchema(route.response.json, 'output') } },
    },
  };
}

/** The OpenAPI 3.1 document of the routes (served at `/openapi.json`). */
export function buildOpenApiDocument(routes: readonly RouteSpec[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const operations = paths[route.path] ?? {};
    operations[route.method] = {
      operationId: route.operationId,
      summary: route.summary,
      'x-novarch-access': route.access,
      security: route.access === 'public' ? [] : [{ bearer: [] }],
      parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
      ...(route.textBody === undefined
        ? {}
        : {
            requestBody: {
              required: true,
              description: route.textBody.description,
              content: { [route.textBody.contentType]: { schema: { type: 'string' } } },
            },
          }),
      ...(route.body === undefined
        ? {}
        : {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
            },
          }),
      responses: { ...success(route), ...problems(route) },
    };
    paths[route.path] = operations;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Novarch server',
      version: novarchVersion(),
      description:
        'Governance for agent tool calls over HTTP. Agent keys (nva_…) govern sessions of their tenant; operator tokens (nvo_…) decide holds and kill sessions of the tenants and teams granted; admin tokens manage keys and tokens. Errors are application/problem+json.',
    },
    paths,
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  };
}
