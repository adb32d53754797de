import { z } from 'zod';
import { OPERATOR_ROLES } from '../identity/principal.js';
import { HoldRecordSchema } from './record-schemas.js';

export const GrantSchema = z.object({ tenantId: z.string(), teamId: z.string().optional() });

export const AgentKeyInfoSchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  name: z.string(),
  /** The one agent the key opens sessions for (absent: any agent of its tenant). */
  agentId: z.string().optional(),
  /** The teams it opens sessions in (absent: every team of its tenant). */
  teamIds: z.array(z.string()).optional(),
  createdAt: z.string(),
  revokedAt: z.string().optional(),
});

export const OperatorTokenInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(OPERATOR_ROLES),
  grants: z.array(GrantSchema),
  /** Approver groups the operator is in (absent: none). */
  groups: z.array(z.string()).optional(),
  /** Agent key ids whose sessions' holds it may not decide (absent: none). */
  notForKeys: z.array(z.string()).optional(),
  createdAt: z.string(),
  revokedAt: z.string().optional(),
});

/** The one response that carries a secret: the credential just created (shown once). */
export const CreatedKeySchema = z.object({ key: AgentKeyInfoSchema, secret: z.string() });
export const CreatedOperatorSchema = z.object({ token: OperatorTokenInfoSchema, secret: z.string() });

export const PrincipalSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('agent'), id: z.string(), name: z.string(), tenantId: z.string() }),
  z.object({
    kind: z.literal('operator'),
    id: z.string(),
    name: z.string(),
    role: z.enum(OPERATOR_ROLES),
    grants: z.array(GrantSchema),
  }),
]);

/** `application/problem+json` (RFC 9457), with the field problems of a bad request. */
export const ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.int(),
  detail: z.string(),
  issues: z
    .array(
      z.object({
        path: z.string(),
        message: z.string(),
        line: z.int().optional(),
        column: z.int().optional(),
        hint: z.string().optional(),
      }),
    )
    .optional(),
  /** A write whose decision failed after it was recorded: its action (refuse the call on it). */
  actionId: z.string().optional(),
  /** Whether the server stored that refusal already (then the client records none). */
  refusalRecorded: z.boolean().optional(),
});

/** One event of `GET /v1/events` (the `data:` of a server-sent event, JSON). */
export const ServerEventSchema = z.object({
  type: z.enum(['hold-created', 'hold-decided', 'session-killed']),
  tenantId: z.string(),
  teamId: z.string(),
  sessionId: z.string(),
  hold: HoldRecordSchema.optional(),
  at: z.string(),
});
