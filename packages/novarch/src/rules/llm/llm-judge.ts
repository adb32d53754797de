import { z } from 'zod';
import type { EvidenceRecord } from '../../model/records.js';
import type { JudgedAction } from '../build-cel-activation.js';
import type { Rule } from '../rule-set.js';

/** What an LLM judge is asked: apply these plain-English rules to this action and evidence. */
export interface LlmJudgeRequest {
  rules: readonly Rule[];
  action: JudgedAction;
  evidence: readonly EvidenceRecord[];
}

/** An LLM judge's answer for one rule. */
export interface LlmRuleVerdict {
  ruleId: string;
  violated: boolean;
  rationale: string;
  /**
   * Set when the judge could not decide (HTTP error, no tool call, malformed answer): the rule then
   * holds for an operator whatever its `on_violation` says. Such entries also carry `violated: true`.
   */
  undecided?: boolean;
}

/**
 * Applies rules that have no CEL condition. An implementation should answer for every rule it is
 * given; the judge treats a missing answer, a malformed one, or a thrown error as a hold.
 */
export interface LlmJudge {
  judge(request: LlmJudgeRequest): Promise<LlmRuleVerdict[]>;
}

/** Checks what any LlmJudge returned before it is used (custom judges cross a boundary too). */
export const LlmRuleVerdictsSchema = z.array(
  z.object({
    ruleId: z.string(),
    violated: z.boolean(),
    rationale: z.string(),
    undecided: z.boolean().optional(),
  }),
);
