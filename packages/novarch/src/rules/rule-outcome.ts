import type { Rule } from './rule-set.js';

/** How one rule came out for one action: `pass` = satisfied, `kill`/`hold` = violated with that effect. */
export interface RuleOutcome {
  ruleId: string;
  decision: 'pass' | 'kill' | 'hold';
  /** One sentence naming the rule and version, e.g. `TEAM-2 v1 (hold): Refunds over 500 ... (condition is false)`. */
  rationale: string;
  /** Evidence the decision rests on. */
  evidenceIds: string[];
}

/** `TEAM-2 v1`: how a rule is named in rationales (the version says which text was applied). */
export function ruleLabel(rule: Rule): string {
  return `${rule.id} v${rule.version}`;
}

/** A violation of `rule` with its own effect (`on_violation`). */
export function violation(rule: Rule, reason: string, evidenceIds: readonly string[]): RuleOutcome {
  return {
    ruleId: rule.id,
    decision: rule.onViolation,
    rationale: `${ruleLabel(rule)} (${rule.onViolation}): ${reason}`,
    evidenceIds: [...evidenceIds],
  };
}

/** A rule that could not be decided: always a hold, whatever its `on_violation` (an operator decides). */
export function undecided(rule: Rule, reason: string, evidenceIds: readonly string[]): RuleOutcome {
  return {
    ruleId: rule.id,
    decision: 'hold',
    rationale: `${ruleLabel(rule)} (hold): ${reason}`,
    evidenceIds: [...evidenceIds],
  };
}

/** A satisfied rule. */
export function satisfied(rule: Rule, reason: string, evidenceIds: readonly string[]): RuleOutcome {
  return {
    ruleId: rule.id,
    decision: 'pass',
    rationale: `${ruleLabel(rule)}: ${reason}`,
    evidenceIds: [...evidenceIds],
  };
}
