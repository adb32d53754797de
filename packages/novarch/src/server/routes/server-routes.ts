import { z } from 'zod';
import { PrincipalSchema } from '../../wire/identity-schemas.js';
import { buildOpenApiDocument } from '../build-openapi-document.js';
import { defineRoute, type RouteSpec } from '../route-spec.js';
import { ACTION_ROUTES } from './action-routes.js';
import { ADMIN_ROUTES } from './admin-routes.js';
import { AUDIT_CHAIN_ROUTES } from './audit-chain-routes.js';
import { AUDIT_ROUTES } from './audit-routes.js';
import { EVENT_ROUTES } from './event-routes.js';
import { HOLD_ROUTES } from './hold-routes.js';
import { OkSchema } from './route-helpers.js';
import { RULES_CALIBRATION_ROUTES } from './rules-calibration-routes.js';
import { RULES_ROUTES } from './rules-routes.js';
import { SESSION_ROUTES } from './session-routes.js';

const META_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/healthz',
    operationId: 'health',
    summary: 'Whether the server is up (no credential needed)',
    access: 'public',
    response: { json: OkSchema },
    handle: async () => ({ status: 'ok' as const }),
  }),
  defineRoute({
    method: 'get',
    path: '/openapi.json',
    operationId: 'openApiDocument',
    summary: 'This document',
    access: 'public',
    response: { json: z.record(z.string(), z.unknown()) },
    handle: async () => buildOpenApiDocument(SERVER_ROUTES),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/me',
    operationId: 'me',
    summary: 'Who this credential is: an agent key and its tenant, or an operator with role and grants',
    access: 'authenticated',
    response: { json: PrincipalSchema },
    handle: async (request) => request.principal,
  }),
];

/** Every route of the server, in the order of the OpenAPI document. */
export const SERVER_ROUTES: readonly RouteSpec[] = [
  ...META_ROUTES,
  ...SESSION_ROUTES,
  ...ACTION_ROUTES,
  ...HOLD_ROUTES,
  ...AUDIT_ROUTES,
  ...AUDIT_CHAIN_ROUTES,
  ...EVENT_ROUTES,
  ...ADMIN_ROUTES,
  ...RULES_ROUTES,
  ...RULES_CALIBRATION_ROUTES,
];
