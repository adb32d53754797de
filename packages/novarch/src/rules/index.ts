// Rules, judge and configuration of Novarch. The package's index.ts picks what it exports from here.

export type { JudgedAction } from './build-cel-activation.js';
export { citeRuleSets, ruleSetContentHash, ruleSetReference } from './cite-rule-sets.js';
export { type CompiledCondition, compileCondition } from './compile-condition.js';
export { type DiffLine, diffLines } from './diff-lines.js';
export { type JudgeActionOptions, judgeAction } from './judge-action.js';
export { AnthropicLlmJudge, type AnthropicLlmJudgeOptions } from './llm/anthropic-llm-judge.js';
export { RULE_VERDICTS_TOOL } from './llm/build-rule-verdicts-request.js';
export type { LlmJudge, LlmJudgeRequest, LlmRuleVerdict } from './llm/llm-judge.js';
export { DEFAULT_JUDGE_MODEL, ModelLlmJudge, type ModelLlmJudgeOptions } from './llm/model-llm-judge.js';
export { loadNovarchConfig } from './load-novarch-config.js';
export {
  loadRulesFile,
  loadRulesFiles,
  type RulesFileValidation,
  validateRulesFile,
  validateRulesSource,
} from './load-rules-file.js';
export {
  DEFAULT_HOLD_WINDOW_SECONDS,
  DEFAULT_STORE_PATH,
  defaultNovarchConfig,
  type NovarchConfig,
  type NovarchJudgeConfig,
} from './novarch-config.js';
export {
  NOT_REJUDGED_LLM,
  type ReplayedDecision,
  type ReplayOptions,
  type ReplayReport,
  replayRules,
} from './replay/replay-rules.js';
export type { Rule, RuleSet, ViolationEffect } from './rule-set.js';
export {
  pushRules,
  type RuleSource,
  type RulesPush,
  ruleSetFromStored,
  storedRuleSource,
  storedRulesName,
} from './stored-rules.js';
