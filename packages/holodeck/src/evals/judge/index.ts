// LLM-judge metrics and the judge client (any provider, through judge-client). The export list is explicit.
// Metric configs are parsed by the config layer (MetricConfigSchema); the factories take them as is.

export { createAnswerRelevancyMetric } from './answer-relevancy-metric.js';
export { createContextualPrecisionMetric, weightedPrecision } from './contextual-precision-metric.js';
export { createContextualRecallMetric } from './contextual-recall-metric.js';
export { createContextualRelevancyMetric } from './contextual-relevancy-metric.js';
export { createJudgeClient, type JudgeClientOptions, VERDICT_TOOL_NAME } from './create-judge-client.js';
export { createFaithfulnessMetric } from './faithfulness-metric.js';
export { createGEvalMetric } from './g-eval-metric.js';
export { judgeCacheFile, judgeCacheKey } from './judge-cache.js';
export { type JudgeClientForOptions, judgeClientFor } from './judge-client-for.js';
export { JudgeError, type JudgeErrorCode } from './judge-error.js';
export { createRubricMetric } from './rubric-metric.js';
export { NO_JUDGE_MESSAGE } from './run-judge-metric.js';
