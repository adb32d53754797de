import { z } from 'zod';
import { IDENTITY_NAME, OPERATOR_ROLES } from '../identity/principal.js';
import {
  ActionContextSchema,
  CitationsSchema,
  HoldStatusSchema,
  PendingHoldStateSchema,
} from './record-schemas.js';

// Request bodies and queries are strict: an unknown key is an error that names it (a body that
// says who decides, `decidedBy`, is refused: the operator is the token's).

const text = z.string().trim().min(1);

/** A team's id: what a grant (`TENANT/TEAM`) and a pushed rules file name. */
const teamId = z
  .string()
  .regex(
    IDENTITY_NAME,
    'a team id is 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit',
  );

export const OpenSessionBodySchema = z.strictObject({
  /** Default the agent key's tenant; any other tenant is refused. */
  tenantId: text.optional(),
  teamId,
  agentId: text.max(200),
  /** The longest hold wait the session accepts (s); default the deployment's whole window. */
  maxHoldS: z.number().min(0).optional(),
});

/** A UTC instant as `Date.toISOString()` writes it, which the store keeps as is. */
const instant = z.iso.datetime({
  error: 'expected an ISO-8601 UTC time such as 2026-05-01T12:00:00.000Z',
});

export const EvidenceBodySchema = z.strictObject({
  toolName: text,
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  isError: z.boolean(),
  startedAt: instant,
  finishedAt: instant,
});

export const ProposeActionBodySchema = z.strictObject({
  actionType: text,
  toolName: text,
  input: z.unknown().optional(),
  context: ActionContextSchema,
  reasoning: z.string().optional(),
  /**
   * How long from now (ms, on the server's clock) the write may still be let run: a budget rather
   * than a time, so the clocks of agent and server need not agree.
   */
  deadlineInMs: z.int().min(0).optional(),
  /** Let a pass run at once, atomically with a check of the session's kill (the gate does). */
  release: z.boolean().optional(),
  /** Approve with edit: the approved hold whose edited input this is (the edit is re-judged and, if the rules allow, run). */
  editOf: z.string().min(1).max(200).optional(),
});

export const RefusalBodySchema = z
  .strictObject({
    source: z.enum(['gate', 'permissions']),
    actionId: text.optional(),
    call: z
      .strictObject({
        actionType: text,
        toolName: text,
        input: z.unknown().optional(),
        context: ActionContextSchema,
        reasoning: z.string().optional(),
      })
      .optional(),
    citations: CitationsSchema,
  })
  .refine((refusal) => refusal.actionId !== undefined || refusal.call !== undefined, {
    message: 'a refusal names the refused call: send actionId (an action already recorded) or call',
    path: ['actionId'],
  });

/** An agent latches its own session (judge kill, hold skipped or timed out, the gate): never as an operator. */
export const LatchBodySchema = z.strictObject({
  reason: text,
  source: z.enum(['judge', 'hold_skipped', 'hold_timed_out', 'gate']),
  actionId: text.optional(),
  ruleIds: z.array(z.string()).optional(),
  evidenceIds: z.array(z.string()).optional(),
});

/** The longest one long-poll of a hold lasts. */
export const MAX_WAIT_MS = 60_000;

export const WaitBodySchema = z.strictObject({
  /** How long this request waits at most (ms, ≤ 60000, default 25000); the hold's deadline ends it sooner. */
  timeoutMs: z.int().min(0).max(MAX_WAIT_MS).optional(),
  /** The agent process that waits (recorded with each check-in); default the server's own. */
  waiter: z.strictObject({ pid: z.int().min(0), host: text }).optional(),
});

export const DecisionBodySchema = z.strictObject({
  decision: z.enum(['approve', 'deny', 'skip']),
  rationale: z.string().optional(),
  force: z.boolean().optional(),
  /**
   * Approve with edit (approve only): the tool input the write runs with instead of the agent's.
   * The agent's gate checks it against the tool's input schema and has the rules judge it again
   * before it runs; the action keeps the agent's input, the hold the edit and who made it.
   */
  input: z.record(z.string(), z.json()).optional(),
});

export const KillBodySchema = z.strictObject({ reason: text });

export const SessionsQuerySchema = z.strictObject({
  tenantId: text.optional(),
  agentId: text.optional(),
  killed: z.enum(['true', 'false']).optional(),
});

export const HoldsQuerySchema = z.strictObject({
  status: z.union([HoldStatusSchema, PendingHoldStateSchema]).optional(),
  sessionId: text.optional(),
});

export const AuditQuerySchema = z.strictObject({
  tenantId: text.optional(),
  agentId: text.optional(),
  sessionId: text.optional(),
  verdict: z.enum(['pass', 'kill', 'hold']).optional(),
  limit: z
    .string()
    .regex(/^[1-9][0-9]*$/, 'expected a whole number of 1 or more')
    .transform(Number)
    .optional(),
});

export const CreateKeyBodySchema = z.strictObject({
  tenantId: text,
  name: text,
  /** The one agent the key opens sessions for (recommended; unset: any agent of the tenant). */
  agentId: text.max(200).optional(),
  /** The teams the key opens sessions in (unset: every team of the tenant). */
  teamIds: z.array(teamId).min(1).optional(),
});

export const CreateOperatorBodySchema = z.strictObject({
  name: text,
  role: z.enum(OPERATOR_ROLES),
  /** `TENANT`, `TENANT/TEAM` or `*`. */
  grants: z.array(text).min(1),
  /** Approver groups the operator is in (a rule's `approvers:` names them). */
  groups: z.array(teamId).max(50).optional(),
  /** Agent key ids (`nva_…`) whose sessions' holds the operator may not decide. */
  notForKeys: z.array(text.max(200)).max(200).optional(),
});
