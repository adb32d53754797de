import type { EvidenceRecord } from '../model/records.js';
import type { JudgedAction } from './build-cel-activation.js';
import { type LlmJudge, LlmRuleVerdictsSchema } from './llm/llm-judge.js';
import { type RuleOutcome, satisfied, undecided, violation } from './rule-outcome.js';
import type { Rule } from './rule-set.js';

/**
 * Applies the rules without a condition. Without an LLM judge each one holds for an operator.
 * With one, a violated rule takes its own effect; a rule the judge could not decide, left out of
 * its answer, or lost to a thrown error or a malformed answer holds. These rules cite all the
 * session's evidence: the LLM judge sees all of it.
 */
export async function judgeRulesWithLlm(
  rules: readonly Rule[],
  llmJudge: LlmJudge | undefined,
  action: JudgedAction,
  evidence: readonly EvidenceRecord[],
): Promise<RuleOutcome[]> {
  if (rules.length === 0) return [];
  if (llmJudge === undefined) {
    return rules.map((rule) =>
      undecided(rule, 'no condition and no LLM judge configured; an operator decides', []),
    );
  }
  const evidenceIds = evidence.map((record) => record.id);
  let answer: unknown;
  try {
    answer = await llmJudge.judge({ rules, action, evidence });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return rules.map((rule) => undecided(rule, `the LLM judge failed (${reason})`, evidenceIds));
  }
  const parsed = LlmRuleVerdictsSchema.safeParse(answer);
  if (!parsed.success) {
    return rules.map((rule) => undecided(rule, 'the LLM judge returned a malformed answer', evidenceIds));
  }
  return rules.map((rule) => {
    const answers = parsed.data.filter((verdict) => verdict.ruleId === rule.id);
    if (answers.length === 0)
      return undecided(rule, 'the LLM judge gave no verdict for this rule', evidenceIds);
    // Several answers for one rule: the most cautious one counts.
    const unsure = answers.find((verdict) => verdict.undecided === true);
    if (unsure) return undecided(rule, `the LLM judge could not decide (${unsure.rationale})`, evidenceIds);
    const violated = answers.find((verdict) => verdict.violated);
    if (violated)
      return violation(rule, `${rule.description} (LLM judge: ${violated.rationale})`, evidenceIds);
    return satisfied(rule, `LLM judge: ${answers[0]?.rationale ?? 'satisfied'}`, evidenceIds);
  });
}
