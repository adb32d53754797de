import { z } from 'zod';
import { holodeckVersion } from '../holodeck-version.js';
import type { ServeRoute } from './serve-route.js';

/** JSON Schema of a zod schema, inline (OpenAPI 3.1 uses JSON Schema 2020-12 as is). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
}

const ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.int(),
  detail: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  instance: z.string().optional(),
});

const PROBLEMS: Record<string, string> = {
  '400': 'the request does not match its schema, or is not valid JSON (detail says where and how to fix it)',
  '401': 'no API key, or one this server does not accept',
  '403': 'refused: a Novarch hold is decided by an operator, never by the caller',
  '404': 'no such session for this API key (another key’s sessions included)',
  '409': 'the session already runs a turn, or has none waiting',
  '413': 'the body is larger than serve.max_body_bytes, or the message longer than serve.max_message_chars',
  '415': 'the body is not application/json',
  '421': 'the session is held by another instance (named in the problem)',
  '429': 'at serve.max_sessions or serve.max_concurrent_turns: retry after Retry-After seconds',
  '503': 'the server is shutting down',
  '500': 'the server failed (logged on its side; no detail is sent)',
};

function parameters(schema: z.ZodType | undefined): Record<string, unknown>[] {
  if (schema === undefined) return [];
  const object = jsonSchema(schema, 'input');
  const properties = z.record(z.string(), z.unknown()).catch({}).parse(object.properties);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'path',
    required: true,
    schema: property,
  }));
}

function responses(route: ServeRoute): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  if (route.response.json)
    content['application/json'] = { schema: jsonSchema(route.response.json, 'output') };
  if (route.response.eventStream)
    content['text/event-stream'] = { schema: jsonSchema(route.response.eventStream, 'output') };
  const problem = { 'application/problem+json': { schema: jsonSchema(ProblemSchema, 'output') } };
  const statuses = route.public ? ['500'] : Object.keys(PROBLEMS);
  return {
    [String(route.status ?? 200)]: {
      description: route.response.description ?? 'success',
      ...(Object.keys(content).length ? { content } : {}),
    },
    ...Object.fromEntries(
      statuses.map((status) => [status, { description: PROBLEMS[status], content: problem }]),
    ),
  };
}

/** The OpenAPI 3.1 document of the routes served (at `/openapi.json`), from their declarations. */
export function buildServeOpenApi(routes: readonly ServeRoute[], agentName: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const operations = paths[route.path] ?? {};
    operations[route.method] = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.protocol],
      security: route.public ? [] : [{ bearer: [] }],
      parameters: parameters(route.params),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
            },
          }
        : {}),
      ...(route.rawBody
        ? {
            requestBody: {
              required: true,
              description: route.rawBody.description,
              content: { 'application/json': { schema: {} } },
            },
          }
        : {}),
      responses: responses(route),
    };
    paths[route.path] = operations;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${agentName} (holodeck serve)`,
      version: holodeckVersion(),
      description:
        'A HoloDeck agent as a service: REST sessions, OpenAI Responses, AG-UI, MCP and A2A. Errors are application/problem+json. With API keys configured every non-public route needs Authorization: Bearer <key>.',
    },
    paths,
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  };
}
