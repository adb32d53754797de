import type { HoldApprovalPolicy, Verdict } from '../model/records.js';
import type { RuleSet } from './rule-set.js';

/**
 * Who must approve a hold, from the rules it cites: as many distinct operators as the most any
 * held rule asks (`approvals:`), each of them in one of the groups of every held rule that names
 * `approvers:`. Undefined for a verdict that is not a hold, or when no held rule asks more than
 * one approval by any operator.
 */
export function holdApprovalPolicy(
  verdict: Verdict,
  rules: readonly RuleSet[],
  teamId: string,
): HoldApprovalPolicy | undefined {
  if (verdict.kind !== 'hold') return undefined;
  const cited = new Set(verdict.citations.ruleIds);
  const held = rules
    .filter((set) => set.team === teamId)
    .flatMap((set) => set.rules)
    .filter((rule) => cited.has(rule.id));
  const approvals = Math.max(1, ...held.map((rule) => rule.approvals ?? 1));
  const approverGroups = held.flatMap((rule) =>
    rule.approvers === undefined || rule.approvers.length === 0
      ? []
      : [{ ruleId: rule.id, groups: [...rule.approvers] }],
  );
  if (approvals === 1 && approverGroups.length === 0) return undefined;
  return { approvals, approverGroups };
}
