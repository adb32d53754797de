import { z } from 'zod';
import { defineServeRoute, type ServeRoute } from './serve-route.js';

/** /health, /ready and /openapi.json: public, and always on. */
export function coreRoutes(openApi: () => Record<string, unknown>): ServeRoute[] {
  return [
    defineServeRoute({
      protocol: 'core',
      method: 'get',
      path: '/health',
      operationId: 'health',
      summary: 'The process answers (liveness)',
      public: true,
      response: { json: z.object({ status: z.literal('ok') }) },
      handle: () => Promise.resolve({ status: 'ok' }),
    }),
    defineServeRoute({
      protocol: 'core',
      method: 'get',
      path: '/ready',
      operationId: 'ready',
      summary:
        'The backend is initialised and its tools loaded, and the server is not shutting down (503 otherwise)',
      public: true,
      response: { json: z.object({ ready: z.boolean(), sessions: z.int(), turns: z.int() }) },
      handle(request) {
        const { registry } = request.services;
        const ready = request.services.phase() === 'ready';
        return Promise.resolve(
          request.context.json(
            { ready, sessions: registry.size, turns: registry.runningTurns },
            ready ? 200 : 503,
          ),
        );
      },
    }),
    defineServeRoute({
      protocol: 'core',
      method: 'get',
      path: '/openapi.json',
      operationId: 'openApi',
      summary: 'This document',
      public: true,
      response: { json: z.record(z.string(), z.unknown()) },
      handle: () => Promise.resolve(openApi()),
    }),
  ];
}
