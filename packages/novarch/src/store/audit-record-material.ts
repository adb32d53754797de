import type { Selectable } from 'kysely';
import type { AuditLinkKind } from '../model/audit-chain.js';
import type {
  ActionsTable,
  HoldsTable,
  RuleSetsTable,
  SessionsTable,
  VerdictsTable,
} from './store-tables.js';

// What each link of the audit chain vouches for: the columns of the decision as stored, in a
// plain object whose canonical JSON is hashed into the link's `digest`. Built from rows (as
// written, or as read back: `verify` rebuilds them from the database and compares). Columns that
// are not decisions (a hold waiter's check-ins, `released_at`) are left out: they change later.

type Row<T> = Pick<Selectable<T>, Exclude<keyof Selectable<T>, 'seq'>>;

/** A number column as a number (PostgreSQL's driver returns some integer types as text). */
const int = (value: number | string | bigint): number => Number(value);

/** A verdict with the action it judged: an edit of the action's input is an edit of the verdict. */
export function verdictMaterial(
  verdict: Row<VerdictsTable>,
  action: Pick<
    Row<ActionsTable>,
    | 'id'
    | 'session_id'
    | 'action_type'
    | 'tool_name'
    | 'input_json'
    | 'context_json'
    | 'reasoning'
    | 'created_at'
  >,
) {
  return {
    kind: 'verdict' as const,
    id: verdict.id,
    actionId: verdict.action_id,
    sessionId: verdict.session_id,
    verdict: verdict.kind,
    citations: verdict.citations_json,
    source: verdict.source,
    decidedAt: verdict.decided_at,
    osUser: verdict.os_user,
    action: {
      id: action.id,
      sessionId: action.session_id,
      actionType: action.action_type,
      toolName: action.tool_name,
      input: action.input_json,
      context: action.context_json,
      reasoning: action.reasoning,
      createdAt: action.created_at,
    },
  };
}

/**
 * A hold as placed (its decision is a link of its own), with the approval policy it is decided
 * under (`policy_json`: how many approvals, which groups; null for one approval by any operator).
 * `format: 2` marks this material; holds chained before it was added are covered by
 * `legacyHoldMaterial`, which `verify` falls back to only when the link's digest is of that form.
 */
export function holdMaterial(
  hold: Pick<
    Row<HoldsTable>,
    'id' | 'schema_version' | 'action_id' | 'session_id' | 'created_at' | 'deadline' | 'policy_json'
  >,
) {
  return { ...legacyHoldMaterial(hold), format: 2 as const, policy: hold.policy_json ?? null };
}

/**
 * A hold's material as chained before `format: 2` (without its policy). Never written any more:
 * an old link stays verifiable, and a new link can never pass as one (its digest covers `format`
 * and `policy`, which this material lacks).
 */
export function legacyHoldMaterial(
  hold: Pick<
    Row<HoldsTable>,
    'id' | 'schema_version' | 'action_id' | 'session_id' | 'created_at' | 'deadline'
  >,
) {
  return {
    kind: 'hold' as const,
    id: hold.id,
    schemaVersion: int(hold.schema_version),
    actionId: hold.action_id,
    sessionId: hold.session_id,
    createdAt: hold.created_at,
    deadline: hold.deadline,
  };
}

/** A hold's decision: who decided what, when, and why. */
export function holdDecisionMaterial(
  hold: Pick<
    Row<HoldsTable>,
    'id' | 'status' | 'decided_at' | 'decided_by' | 'rationale' | 'decided_by_os_user'
  >,
) {
  return {
    kind: 'hold_decision' as const,
    id: hold.id,
    status: hold.status,
    decidedAt: hold.decided_at,
    decidedBy: hold.decided_by,
    rationale: hold.rationale,
    decidedByOsUser: hold.decided_by_os_user,
  };
}

/** The record id of a hold's `number`-th approval (1 for the first). */
export function holdApprovalId(holdId: string, number: number): string {
  return `${holdId}#${number}`;
}

/** The hold id and approval number a `holdApprovalId` names; undefined for another id. */
export function parseHoldApprovalId(recordId: string): { holdId: string; number: number } | undefined {
  const at = recordId.lastIndexOf('#');
  const number = Number(recordId.slice(at + 1));
  if (at <= 0 || !Number.isSafeInteger(number) || number < 1) return undefined;
  return { holdId: recordId.slice(0, at), number };
}

/** The approvals list of a hold row as stored (any JSON: an edit by hand is compared as it is). */
export function storedApprovals(approvalsJson: string | null | undefined): unknown[] {
  if (approvalsJson == null) return [];
  try {
    const parsed: unknown = JSON.parse(approvalsJson);
    return Array.isArray(parsed) ? parsed : [approvalsJson];
  } catch {
    // Not JSON: kept as text, so its approvals' links see an edit.
    return [approvalsJson];
  }
}

/**
 * One operator's approval of a hold (`number` counts from 1), as stored in its approvals list,
 * with the policy it counted under (how many approvals, which groups). The first approval of an
 * approve-with-edit carries the edit (only the first may make one): the agent's own input, the
 * edited input that runs, and who edited. Undefined when the list has no such approval.
 */
export function holdApprovalMaterial(
  hold: Pick<
    Row<HoldsTable>,
    'id' | 'action_id' | 'policy_json' | 'approvals_json' | 'edited_input_json' | 'edited_by'
  >,
  action: Pick<Row<ActionsTable>, 'input_json'>,
  number: number,
) {
  const approvals = storedApprovals(hold.approvals_json);
  if (number < 1 || number > approvals.length) return undefined;
  const edited = number === 1 && (hold.edited_input_json != null || hold.edited_by != null);
  return {
    kind: 'hold_approval' as const,
    holdId: hold.id,
    actionId: hold.action_id,
    number,
    approval: approvals[number - 1],
    policy: hold.policy_json ?? null,
    ...(edited
      ? {
          edit: {
            originalInput: action.input_json,
            input: hold.edited_input_json ?? null,
            by: hold.edited_by ?? null,
          },
        }
      : {}),
  };
}

/** A session's kill latch. */
export function killMaterial(
  session: Pick<
    Row<SessionsTable>,
    | 'id'
    | 'tenant_id'
    | 'killed_at'
    | 'kill_reason'
    | 'kill_source'
    | 'kill_action_id'
    | 'kill_citations_json'
    | 'killed_by_os_user'
  >,
) {
  return {
    kind: 'kill' as const,
    sessionId: session.id,
    tenantId: session.tenant_id,
    killedAt: session.killed_at,
    reason: session.kill_reason,
    source: session.kill_source,
    actionId: session.kill_action_id,
    citations: session.kill_citations_json,
    killedByOsUser: session.killed_by_os_user,
  };
}

/** One pushed version of a team's rules, its text included. */
export function ruleChangeMaterial(ruleSet: Row<RuleSetsTable>) {
  return {
    kind: 'rule_change' as const,
    team: ruleSet.team,
    version: int(ruleSet.version),
    content: ruleSet.content,
    contentHash: ruleSet.content_hash,
    pushedAt: ruleSet.pushed_at,
    pushedBy: ruleSet.pushed_by,
    pushedByOsUser: ruleSet.pushed_by_os_user,
  };
}

/** The record id a rule change's link names. */
export function ruleChangeId(team: string, version: number | string): string {
  return `${team}@${int(version)}`;
}

/** Any link's material (what an export carries beside each link). */
export type AuditRecordMaterial =
  | ReturnType<typeof verdictMaterial>
  | ReturnType<typeof holdMaterial>
  | ReturnType<typeof legacyHoldMaterial>
  | NonNullable<ReturnType<typeof holdApprovalMaterial>>
  | ReturnType<typeof holdDecisionMaterial>
  | ReturnType<typeof killMaterial>
  | ReturnType<typeof ruleChangeMaterial>;

/** The link kind a material stands for. */
export function materialKind(material: AuditRecordMaterial): AuditLinkKind {
  return material.kind;
}
