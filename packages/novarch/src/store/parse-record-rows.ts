import { z } from 'zod';
import type {
  ActionRecord,
  EvidenceRecord,
  SessionKill,
  SessionRecord,
  VerdictRecord,
} from '../model/records.js';
import { fromJsonColumn } from './json-column.js';
import { NovarchStoreError } from './novarch-store-error.js';

// Rows read back from the database crossed a boundary (another process, an older Novarch, a
// hand-edited file), so each goes through zod before it becomes a record. No casts.

const timestamp = z.iso.datetime();
const id = z.string().min(1);

const sessionRowSchema = z.object({
  id,
  tenant_id: z.string(),
  team_id: z.string(),
  agent_id: z.string(),
  started_at: timestamp,
  hold_wait_seconds: z.number().nonnegative(),
  killed_at: timestamp.nullable(),
  kill_reason: z.string().nullable(),
  // Migration 3 (absent from rows written before it, NULL on sessions not killed).
  kill_source: z.enum(['operator', 'judge', 'hold_skipped', 'hold_timed_out', 'gate']).nullish(),
  kill_action_id: z.string().nullish(),
  kill_citations_json: z.string().nullish(),
  killed_by_os_user: z.string().nullish(),
});

const killCitationsSchema = z.object({ ruleIds: z.array(z.string()), evidenceIds: z.array(z.string()) });

const evidenceRowSchema = z.object({
  id,
  session_id: id,
  tool_name: z.string(),
  input_json: z.string().nullable(),
  output_json: z.string().nullable(),
  is_error: z.union([z.literal(0), z.literal(1)]),
  started_at: timestamp,
  finished_at: timestamp,
});

const actionRowSchema = z.object({
  id,
  session_id: id,
  action_type: z.string(),
  tool_name: z.string(),
  input_json: z.string().nullable(),
  context_json: z.string(),
  reasoning: z.string().nullable(),
  created_at: timestamp,
  released_at: timestamp.nullish(),
});

const verdictRowSchema = z.object({
  id,
  action_id: id,
  session_id: id,
  kind: z.enum(['pass', 'kill', 'hold']),
  citations_json: z.string(),
  source: z.enum(['judge', 'gate', 'permissions']),
  decided_at: timestamp,
  os_user: z.string().nullish(),
});

/** `ActionContext`: the known fields are checked, any others are kept. */
const actionContextSchema = z.looseObject({
  recordId: z.string(),
  summary: z.string(),
  amount: z.number().optional(),
});

/** `Citations` of a verdict. */
const ruleSetReferenceSchema = z.object({
  team: z.string(),
  version: z.int().min(1).nullable(),
  contentHash: z.string(),
});

export const citationsSchema = z.object({
  ruleIds: z.array(z.string()),
  evidenceIds: z.array(z.string()),
  rationale: z.string(),
  // Since rules became versioned data (absent on verdicts stored before, and on the gate's own).
  ruleSets: z.array(ruleSetReferenceSchema).optional(),
  rules: z.array(z.object({ id: z.string(), version: z.int(), ruleSet: ruleSetReferenceSchema })).optional(),
  // Since shadow mode (`mode: monitor`); absent when no monitored rule applied.
  shadow: z
    .array(
      z.object({
        ruleId: z.string(),
        version: z.int(),
        decision: z.enum(['pass', 'kill', 'hold']),
        rationale: z.string(),
      }),
    )
    .optional(),
});

/**
 * Where a row comes from: read back from the database (`stored`), or about to be written (`new`),
 * which is checked first so that nothing is stored that could not be read back.
 */
export type RowOrigin = 'stored' | 'new';

/** Parses with `schema`; a failure is a `NovarchStoreError` worded for where the row came from. */
export function parseWith<Output>(
  schema: z.ZodType<Output>,
  value: unknown,
  what: string,
  origin: RowOrigin,
): Output {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = z.prettifyError(parsed.error);
    throw new NovarchStoreError(
      origin === 'new'
        ? `Cannot store ${what}: it is invalid:\n${issues}`
        : `Stored ${what} does not parse; the store is damaged:\n${issues}`,
    );
  }
  return parsed.data;
}

/** Built once: a zod schema built per call is compiled per call (a hot path of every read). */
const rowIdSchema = z.object({ id: z.string() });

function describe(kind: string, row: unknown): string {
  const found = rowIdSchema.safeParse(row);
  return found.success ? `${kind} ${found.data.id}` : kind;
}

/** Parses a `sessions` row. */
export function parseSessionRow(row: unknown, origin: RowOrigin = 'stored'): SessionRecord {
  const stored = parseWith(sessionRowSchema, row, describe('session', row), origin);
  return {
    id: stored.id,
    tenantId: stored.tenant_id,
    teamId: stored.team_id,
    agentId: stored.agent_id,
    startedAt: stored.started_at,
    holdWaitSeconds: stored.hold_wait_seconds,
    ...(stored.killed_at === null ? {} : { killedAt: stored.killed_at }),
    ...(stored.kill_reason === null ? {} : { killReason: stored.kill_reason }),
    ...(stored.kill_source == null ? {} : { kill: parseKill(stored, stored.kill_source) }),
  };
}

function parseKill(stored: z.output<typeof sessionRowSchema>, source: SessionKill['source']): SessionKill {
  const citations =
    stored.kill_citations_json == null
      ? { ruleIds: [], evidenceIds: [] }
      : parseWith(
          killCitationsSchema,
          fromJsonColumn(stored.kill_citations_json, `kill citations of session ${stored.id}`),
          `kill citations of session ${stored.id}`,
          'stored',
        );
  return {
    source,
    ...(stored.kill_action_id == null ? {} : { actionId: stored.kill_action_id }),
    ruleIds: citations.ruleIds,
    evidenceIds: citations.evidenceIds,
    ...(stored.killed_by_os_user == null ? {} : { osUser: stored.killed_by_os_user }),
  };
}

/** Parses an `evidence` row, including its JSON input and output. */
export function parseEvidenceRow(row: unknown, origin: RowOrigin = 'stored'): EvidenceRecord {
  const what = describe('evidence', row);
  const stored = parseWith(evidenceRowSchema, row, what, origin);
  return {
    id: stored.id,
    sessionId: stored.session_id,
    toolName: stored.tool_name,
    input: fromJsonColumn(stored.input_json, `input of ${what}`),
    output: fromJsonColumn(stored.output_json, `output of ${what}`),
    isError: stored.is_error === 1,
    startedAt: stored.started_at,
    finishedAt: stored.finished_at,
  };
}

/** Parses an `actions` row, including its JSON input and context. */
export function parseActionRow(row: unknown, origin: RowOrigin = 'stored'): ActionRecord {
  const what = describe('action', row);
  const stored = parseWith(actionRowSchema, row, what, origin);
  const context = fromJsonColumn(stored.context_json, `context of ${what}`);
  return {
    id: stored.id,
    sessionId: stored.session_id,
    actionType: stored.action_type,
    toolName: stored.tool_name,
    input: fromJsonColumn(stored.input_json, `input of ${what}`),
    context: parseWith(actionContextSchema, context, `context of ${what}`, origin),
    ...(stored.reasoning === null ? {} : { reasoning: stored.reasoning }),
    createdAt: stored.created_at,
    ...(stored.released_at == null ? {} : { releasedAt: stored.released_at }),
  };
}

/** Parses a `verdicts` row back into the tagged `Verdict` with its citations. */
export function parseVerdictRow(row: unknown, origin: RowOrigin = 'stored'): VerdictRecord {
  const what = describe('verdict', row);
  const stored = parseWith(verdictRowSchema, row, what, origin);
  const citations = parseWith(
    citationsSchema,
    fromJsonColumn(stored.citations_json, `citations of ${what}`),
    `citations of ${what}`,
    origin,
  );
  return {
    id: stored.id,
    actionId: stored.action_id,
    sessionId: stored.session_id,
    verdict: { kind: stored.kind, citations },
    decidedAt: stored.decided_at,
    source: stored.source,
    ...(stored.os_user == null ? {} : { osUser: stored.os_user }),
  };
}
