import { z } from 'zod';
import { AuditEntrySchema } from '../../wire/record-schemas.js';
import { AuditQuerySchema } from '../../wire/request-schemas.js';
import { defineRoute } from '../route-spec.js';
import { scopedOf } from './route-helpers.js';

export const AUDIT_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/v1/audit',
    operationId: 'audit',
    summary:
      'The audit trail this credential sees: one entry per action with its verdicts and hold (limit: the N most recent, oldest first)',
    access: 'authenticated',
    query: AuditQuerySchema,
    response: { json: z.array(AuditEntrySchema) },
    handle: ({ query, ...request }) =>
      scopedOf({ query, ...request }).audit({
        ...(query.tenantId === undefined ? {} : { tenantId: query.tenantId }),
        ...(query.agentId === undefined ? {} : { agentId: query.agentId }),
        ...(query.sessionId === undefined ? {} : { sessionId: query.sessionId }),
        ...(query.verdict === undefined ? {} : { verdict: query.verdict }),
        ...(query.limit === undefined ? {} : { limit: query.limit }),
      }),
  }),
];
