import type { EvidenceRecord } from '../model/records.js';
import { errorMessage } from '../support.js';
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
  timeoutMs?: number,
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
    answer = await withinBudget(llmJudge.judge({ rules, action, evidence }), timeoutMs);
  } catch (error) {
    const reason = errorMessage(error);
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

/** Thrown when the LLM judge runs out of its time budget (see `JudgeActionOptions.timeoutMs`). */
class JudgeBudgetExceeded extends Error {
  constructor(timeoutMs: number) {
    super(`it did not answer within its budget of ${Math.round(timeoutMs) / 1000} s`);
  }
}

/**
 * `answer`, unless the budget runs out first. The judge's request is not cancelled (the LlmJudge
 * interface takes no signal): its late answer is ignored.
 */
function withinBudget<T>(answer: Promise<T>, timeoutMs: number | undefined): Promise<T> {
  if (timeoutMs === undefined) return answer;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new JudgeBudgetExceeded(timeoutMs)), Math.max(0, timeoutMs));
  });
  answer.catch(() => {});
  return Promise.race([answer, expired]).finally(() => clearTimeout(timer));
}
