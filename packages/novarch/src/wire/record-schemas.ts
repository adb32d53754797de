import { z } from 'zod';
import { PENDING_HOLD_STATES } from '../model/hold-state.js';
import { HOLD_SCHEMA_VERSION } from '../model/records.js';

// The records of `model/records.ts` as they cross HTTP. The server's responses are validated
// against them by the OpenAPI test, and the remote engine and the operator CLI parse every
// response with them: their outputs are the model's types, with no cast.

export const SessionKillSchema = z.object({
  source: z.enum(['operator', 'judge', 'hold_skipped', 'hold_timed_out', 'gate']),
  actionId: z.string().optional(),
  ruleIds: z.array(z.string()),
  evidenceIds: z.array(z.string()),
  osUser: z.string().optional(),
});

export const SessionRecordSchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  teamId: z.string(),
  agentId: z.string(),
  startedAt: z.string(),
  holdWaitSeconds: z.number(),
  killedAt: z.string().optional(),
  killReason: z.string().optional(),
  kill: SessionKillSchema.optional(),
});

/**
 * A session just opened with an agent key: the session and its secret, answered once. The remote
 * engine sends the secret with every request about the session (`Novarch-Session-Secret`); the
 * server keeps only its hash. Keep it out of the agent's environment.
 */
export const OpenedSessionSchema = SessionRecordSchema.extend({ sessionSecret: z.string().optional() });

export const RuleSetReferenceSchema = z.object({
  team: z.string(),
  version: z.number().nullable(),
  contentHash: z.string(),
});

export const CitationsSchema = z.object({
  ruleIds: z.array(z.string()),
  evidenceIds: z.array(z.string()),
  rationale: z.string(),
  ruleSets: z.array(RuleSetReferenceSchema).optional(),
  rules: z
    .array(z.object({ id: z.string(), version: z.number(), ruleSet: RuleSetReferenceSchema }))
    .optional(),
});

export const VerdictSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('pass'), citations: CitationsSchema }),
  z.object({ kind: z.literal('kill'), citations: CitationsSchema }),
  z.object({ kind: z.literal('hold'), citations: CitationsSchema }),
]);

export const ActionContextSchema = z.looseObject({
  recordId: z.string(),
  summary: z.string(),
  amount: z.number().optional(),
  unit: z
    .string()
    .regex(/^\S{1,16}$/, 'unit: 1 to 16 characters without spaces, e.g. USD')
    .optional(),
});

export const EvidenceRecordSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  toolName: z.string(),
  input: z.unknown(),
  output: z.unknown(),
  isError: z.boolean(),
  startedAt: z.string(),
  finishedAt: z.string(),
});

export const ActionRecordSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  actionType: z.string(),
  toolName: z.string(),
  input: z.unknown(),
  context: ActionContextSchema,
  reasoning: z.string().optional(),
  createdAt: z.string(),
  releasedAt: z.string().optional(),
});

export const VerdictRecordSchema = z.object({
  id: z.string(),
  actionId: z.string(),
  sessionId: z.string(),
  verdict: VerdictSchema,
  decidedAt: z.string(),
  source: z.enum(['judge', 'gate', 'permissions']),
  osUser: z.string().optional(),
});

export const HoldStatusSchema = z.enum(['pending', 'approved', 'denied', 'skipped', 'timed_out']);

export const HoldRecordSchema = z.object({
  schemaVersion: z.literal(HOLD_SCHEMA_VERSION),
  id: z.string(),
  actionId: z.string(),
  sessionId: z.string(),
  status: HoldStatusSchema,
  createdAt: z.string(),
  deadline: z.string(),
  decidedAt: z.string().optional(),
  decidedBy: z.string().optional(),
  rationale: z.string().optional(),
  decidedByOsUser: z.string().optional(),
  waiter: z.object({ seenAt: z.string(), pid: z.number(), host: z.string() }).optional(),
  /** Who must approve it: distinct operators, and the groups each held rule asks (absent: one, anyone). */
  policy: z
    .object({
      approvals: z.int().min(1),
      approverGroups: z.array(z.object({ ruleId: z.string(), groups: z.array(z.string()) })),
    })
    .optional(),
  /** The approvals so far of a hold that needs several, oldest first. */
  approvals: z
    .array(
      z.object({
        operator: z.string(),
        at: z.string(),
        rationale: z.string().optional(),
        osUser: z.string().optional(),
      }),
    )
    .optional(),
  /** Approve with edit: the input the write runs with, and who edited it (the action keeps the agent's). */
  edit: z.object({ input: z.json(), by: z.string() }).optional(),
});

export const AuditEntrySchema = z.object({
  action: ActionRecordSchema,
  session: SessionRecordSchema,
  verdict: VerdictRecordSchema.optional(),
  verdicts: z.array(VerdictRecordSchema),
  hold: HoldRecordSchema.optional(),
});

export const ReleaseResultSchema = z.union([
  z.object({ released: z.literal(true), releasedAt: z.string() }),
  z.object({ released: z.literal(false), session: SessionRecordSchema }),
]);

/** `NovarchEngine.decide`'s answer. */
export const DecisionSchema = z.object({
  action: ActionRecordSchema,
  verdict: VerdictSchema,
  hold: HoldRecordSchema.optional(),
  release: ReleaseResultSchema.optional(),
  /** An operator's edit the rules hold for more than its approval covered: it does not run. */
  editRefusal: z.string().optional(),
});

export const RefusalRecordSchema = z.object({ action: ActionRecordSchema, verdict: VerdictRecordSchema });

export const PendingHoldStateSchema = z.enum(PENDING_HOLD_STATES);

export const HoldSummarySchema = z.object({
  hold: HoldRecordSchema,
  action: ActionRecordSchema.optional(),
  state: PendingHoldStateSchema.optional(),
});

export const HoldDetailSchema = z.object({
  hold: HoldRecordSchema,
  state: PendingHoldStateSchema.optional(),
  session: SessionRecordSchema.optional(),
  action: ActionRecordSchema.optional(),
  verdict: VerdictRecordSchema.optional(),
  citedEvidence: z.array(EvidenceRecordSchema),
});

export const OperatorDecisionResultSchema = z.object({
  hold: HoldRecordSchema,
  forced: z.enum(['abandoned', 'expired']).optional(),
  /** The approval was recorded; the hold still needs this many more, from other operators. */
  awaiting: z.int().min(1).optional(),
});
