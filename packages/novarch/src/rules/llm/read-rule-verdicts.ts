import { z } from 'zod';
import type { Rule } from '../rule-set.js';
import { RULE_VERDICTS_TOOL } from './build-rule-verdicts-request.js';
import type { LlmRuleVerdict } from './llm-judge.js';

const toolInputSchema = z.object({
  verdicts: z.array(z.object({ rule_id: z.string(), violated: z.boolean(), rationale: z.string() })),
});

/**
 * Reads the input of the model's forced tool call (already checked against its JSON Schema by
 * the judge client) into one verdict per rule. A malformed input makes every rule undecided; a
 * rule missing from a valid answer is undecided on its own. Undecided entries carry
 * `violated: true`: never a pass.
 */
export function readRuleVerdicts(input: unknown, rules: readonly Rule[]): LlmRuleVerdict[] {
  const parsed = toolInputSchema.safeParse(input);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
    return allUndecided(
      rules,
      `the model's ${RULE_VERDICTS_TOOL} input is malformed (${where}${first?.message ?? 'invalid'})`,
    );
  }
  return rules.map((rule) => {
    const answers = parsed.data.verdicts.filter((verdict) => verdict.rule_id === rule.id);
    if (answers.length === 0) return undecidedVerdict(rule, 'the model gave no verdict for this rule');
    // Conflicting answers for one rule: the violation counts.
    const chosen = answers.find((verdict) => verdict.violated) ?? answers[0];
    return { ruleId: rule.id, violated: chosen?.violated ?? true, rationale: chosen?.rationale ?? '' };
  });
}

/** Every rule undecided for the same reason (a failed call, a missing key, ...). */
export function allUndecided(rules: readonly Rule[], reason: string): LlmRuleVerdict[] {
  return rules.map((rule) => undecidedVerdict(rule, reason));
}

function undecidedVerdict(rule: Rule, reason: string): LlmRuleVerdict {
  return { ruleId: rule.id, violated: true, undecided: true, rationale: reason };
}
