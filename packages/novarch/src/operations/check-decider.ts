import { ALL_KEYS } from '../identity/operator-tokens.js';
import type { SessionBinding } from '../model/novarch-store.js';
import type { HoldRecord } from '../model/records.js';

/** Who decides a hold, with what their credential says about their duties. */
export interface Decider {
  /** The name decisions are stored under. */
  name: string;
  /**
   * `token`: an operator token (server API, console, `--server`), whose groups and excluded keys
   * are known. `local`: an operator named on a local store, who has no token, so no group.
   */
  via: 'token' | 'local';
  /** The approver groups of the token (absent: none). */
  groups?: readonly string[] | undefined;
  /** Agent keys whose sessions' holds the token may not decide (absent: none). */
  notForKeys?: readonly string[] | undefined;
}

/**
 * Why this operator may not decide this hold (approve, deny or skip), or undefined when they may:
 * - separation of duties: the token may not decide for the agent key that opened the session (a
 *   session that records no key cannot be shown not to be one, so it is refused too);
 * - approver groups: each held rule that names `approvers:` needs a decider in one of its groups
 *   (a local operator has no token, hence no group: such a hold is decided through the server);
 * - quorum: an approval counts once per operator, so one who approved already cannot again.
 * Every message ends with "Nothing was changed."
 */
export function whyMayNotDecide(
  hold: HoldRecord,
  decider: Decider,
  binding: SessionBinding | undefined,
  status: 'approved' | 'denied' | 'skipped',
): string | undefined {
  const excluded = decider.notForKeys ?? [];
  if (excluded.length > 0) {
    if (binding === undefined)
      return `Operator ${decider.name} may not decide hold ${hold.id}: the token is barred from some agent keys' sessions (separation of duties), and this session records no agent key, so it cannot be shown not to be one of them. Another operator must decide it. Nothing was changed.`;
    if (excluded.includes(binding.agentKeyId) || excluded.includes(ALL_KEYS))
      return `Operator ${decider.name} may not decide hold ${hold.id}: its session was opened with agent key ${binding.agentKeyId}, whose holds this token may not decide (separation of duties: the token was created with --not-for-key ${binding.agentKeyId}). Another operator must decide it. Nothing was changed.`;
  }
  for (const entry of hold.policy?.approverGroups ?? []) {
    const groups = entry.groups.join(', ');
    if (decider.via === 'local')
      return `Hold ${hold.id} must be decided by an operator in approver group ${groups} (rule ${entry.ruleId}), and a local operator has no groups: decide it on the server (novarch holds ${command(status)} ${hold.id} --server URL) with an operator token of that group. Nothing was changed.`;
    const own = decider.groups ?? [];
    if (!entry.groups.some((group) => own.includes(group)))
      return `Operator ${decider.name} may not decide hold ${hold.id}: rule ${entry.ruleId} needs an approver in group ${groups}, and this token is in ${own.length === 0 ? 'no group' : `group ${own.join(', ')}`}. An operator of that group must decide it (an admin adds one with novarch operators create --group). Nothing was changed.`;
  }
  if (status === 'approved' && hold.approvals?.some((approval) => approval.operator === decider.name)) {
    const required = hold.policy?.approvals ?? 1;
    return `Operator ${decider.name} already approved hold ${hold.id} (${hold.approvals.length} of ${required} approvals): each approval must come from a different operator. Nothing was changed.`;
  }
  return undefined;
}

/** `approved by ana, bo (2 of 2)` / `1 of 2 approvals (ana); needs 1 more`: what the approvals so far are. */
export function describeApprovals(hold: HoldRecord): string | undefined {
  const required = hold.policy?.approvals ?? 1;
  const approvals = hold.approvals ?? [];
  if (required <= 1 && approvals.length === 0) return undefined;
  const who = approvals.length === 0 ? 'none yet' : approvals.map((approval) => approval.operator).join(', ');
  const missing = required - approvals.length;
  return `${approvals.length} of ${required} approvals (${who})${hold.status === 'pending' && missing > 0 ? `; needs ${missing} more` : ''}`;
}

function command(status: 'approved' | 'denied' | 'skipped'): string {
  return status === 'approved' ? 'approve' : status === 'denied' ? 'deny' : 'skip';
}
