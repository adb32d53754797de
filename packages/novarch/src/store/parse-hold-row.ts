import { z } from 'zod';
import { HOLD_SCHEMA_VERSION, type HoldRecord } from '../model/records.js';
import { NovarchStoreError } from './novarch-store-error.js';
import { parseWith, type RowOrigin } from './parse-record-rows.js';

// Holds are persisted, versioned state: a row carries the `schema_version` of the format it was
// written in, and every format ever shipped keeps a parser here and fixtures under
// `test/fixtures/holds/v<version>/`. A row from a newer Novarch is refused, never guessed at.
//
// The `waiter_*` columns (store migration 2) are optional in format 1: they say who waits on the
// hold, not what was decided, and a format-1 reader that ignores them reads the hold correctly.
// Rows written before them have none, and fixtures of both kinds are kept. So is
// `decided_by_os_user` (migration 3): who decided, as the OS knows them, beside `decided_by`.

const timestamp = z.iso.datetime();

/** Statuses a stored hold may have. */
export const holdStatusSchema = z.enum(['pending', 'approved', 'denied', 'skipped', 'timed_out']);

/** A `holds` row as written by schema version 1. */
const holdRowV1Schema = z
  .object({
    schema_version: z.literal(1),
    id: z.string().min(1),
    action_id: z.string().min(1),
    session_id: z.string().min(1),
    status: holdStatusSchema,
    created_at: timestamp,
    deadline: timestamp,
    decided_at: timestamp.nullable(),
    decided_by: z.string().nullable(),
    rationale: z.string().nullable(),
    waiter_seen_at: timestamp.nullish(),
    waiter_pid: z.number().int().nullish(),
    waiter_host: z.string().nullish(),
    decided_by_os_user: z.string().nullish(),
    policy_json: z.string().nullish(),
    approvals_json: z.string().nullish(),
    edited_input_json: z.string().nullish(),
    edited_by: z.string().nullish(),
  })
  .superRefine((row, context) => {
    const pending = row.status === 'pending';
    if (pending && (row.decided_at !== null || row.decided_by !== null)) {
      context.addIssue({ code: 'custom', message: 'a pending hold cannot have a decision' });
    }
    if (!pending && (row.decided_at === null || row.decided_by === null)) {
      context.addIssue({ code: 'custom', message: `a ${row.status} hold needs decided_at and decided_by` });
    }
    const waiter = [row.waiter_seen_at, row.waiter_pid, row.waiter_host].filter((value) => value != null);
    if (waiter.length !== 0 && waiter.length !== 3) {
      context.addIssue({
        code: 'custom',
        message: 'waiter_seen_at, waiter_pid and waiter_host are set together or not at all',
      });
    }
  });

/** `policy_json` (migration 9). */
const PolicySchema = z.strictObject({
  approvals: z.int().min(1),
  approverGroups: z.array(z.strictObject({ ruleId: z.string(), groups: z.array(z.string()).min(1) })),
});

/** `approvals_json` (migration 9). */
const ApprovalsSchema = z.array(
  z.strictObject({
    operator: z.string().min(1),
    at: timestamp,
    rationale: z.string().optional(),
    osUser: z.string().optional(),
  }),
);

/** A JSON column of a hold, parsed by `schema`; damage is an error (never read as "no policy"). */
function jsonColumn<T>(schema: z.ZodType<T>, text: string, what: string, id: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new NovarchStoreError(`Hold ${id} has a ${what} that is not JSON; the store is damaged.`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new NovarchStoreError(
      `Hold ${id} has an unreadable ${what}: ${z.prettifyError(parsed.error)}; the store is damaged.`,
    );
  return parsed.data;
}

/** The migration-9 fields of a hold row, as optional `HoldRecord` fields. */
function approvalFields(stored: {
  id: string;
  policy_json?: string | null | undefined;
  approvals_json?: string | null | undefined;
  edited_input_json?: string | null | undefined;
  edited_by?: string | null | undefined;
}): Pick<HoldRecord, 'policy' | 'approvals' | 'edit'> {
  const fields: Pick<HoldRecord, 'policy' | 'approvals' | 'edit'> = {};
  if (stored.policy_json != null)
    fields.policy = jsonColumn(PolicySchema, stored.policy_json, 'approval policy', stored.id);
  if (stored.approvals_json != null)
    fields.approvals = jsonColumn(ApprovalsSchema, stored.approvals_json, 'approvals list', stored.id);
  if (stored.edited_input_json != null) {
    const input = jsonColumn(z.unknown(), stored.edited_input_json, 'edited input', stored.id);
    fields.edit = { input, by: stored.edited_by ?? 'unknown' };
  }
  return fields;
}

const versionOnlySchema = z.object({ schema_version: z.number().int(), id: z.unknown() });

/** Parses a stored `holds` row of any shipped schema version into the current `HoldRecord`. */
export function parseHoldRow(row: unknown, origin: RowOrigin = 'stored'): HoldRecord {
  const header = versionOnlySchema.safeParse(row);
  if (!header.success) {
    throw new NovarchStoreError(
      `A stored hold has no valid schema_version: ${z.prettifyError(header.error)}`,
    );
  }
  const { schema_version: version, id } = header.data;
  if (version > HOLD_SCHEMA_VERSION) {
    throw new NovarchStoreError(
      `Hold ${String(id)} was stored in hold format ${version} by a newer Novarch; this one reads up to ` +
        `format ${HOLD_SCHEMA_VERSION}. Upgrade Novarch to read this store.`,
    );
  }
  if (version !== 1) {
    throw new NovarchStoreError(
      `Hold ${String(id)} has an unknown hold format ${version}; the store is damaged.`,
    );
  }
  const stored = parseWith(holdRowV1Schema, row, `hold ${String(id)} (format 1)`, origin);
  return {
    schemaVersion: HOLD_SCHEMA_VERSION,
    id: stored.id,
    actionId: stored.action_id,
    sessionId: stored.session_id,
    status: stored.status,
    createdAt: stored.created_at,
    deadline: stored.deadline,
    ...(stored.decided_at === null ? {} : { decidedAt: stored.decided_at }),
    ...(stored.decided_by === null ? {} : { decidedBy: stored.decided_by }),
    ...(stored.rationale === null ? {} : { rationale: stored.rationale }),
    ...(stored.decided_by_os_user == null ? {} : { decidedByOsUser: stored.decided_by_os_user }),
    ...(stored.waiter_seen_at == null || stored.waiter_pid == null || stored.waiter_host == null
      ? {}
      : { waiter: { seenAt: stored.waiter_seen_at, pid: stored.waiter_pid, host: stored.waiter_host } }),
    ...approvalFields(stored),
  };
}
