import type { LlmJudge, LlmJudgeRequest, LlmRuleVerdict } from './llm-judge.js';

/**
 * Stands in for the LLM judge when a replay or a calibration is run without one: answers
 * "undecided" for every rule with `rationale`, and remembers that it was asked.
 */
export class AbsentLlmJudge implements LlmJudge {
  asked = false;

  constructor(private readonly rationale: string) {}

  async judge(request: LlmJudgeRequest): Promise<LlmRuleVerdict[]> {
    this.asked = true;
    return request.rules.map((rule) => ({
      ruleId: rule.id,
      violated: true,
      undecided: true,
      rationale: this.rationale,
    }));
  }
}
