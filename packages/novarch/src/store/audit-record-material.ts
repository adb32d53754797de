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

/** A hold as placed (its decision is a link of its own). */
export function holdMaterial(
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
  | ReturnType<typeof holdDecisionMaterial>
  | ReturnType<typeof killMaterial>
  | ReturnType<typeof ruleChangeMaterial>;

/** The link kind a material stands for. */
export function materialKind(material: AuditRecordMaterial): AuditLinkKind {
  return material.kind;
}
