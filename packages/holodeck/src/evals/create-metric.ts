import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import type { MetricConfig } from '../config/index.js';
import { createCodeMetric, loadGrader } from './code/code-metric.js';
import { createExpressionMetric } from './code/expression-metric.js';
import { createAffixMetric, createWordCountMetric } from './deterministic/affix-metrics.js';
import { createBudgetMetric } from './deterministic/budget-metrics.js';
import {
  createContainsJsonMetric,
  createDocumentFormatMetric,
} from './deterministic/document-format-metrics.js';
import { createJsonMetric } from './deterministic/json-metrics.js';
import { createPiiMetric } from './deterministic/pii-metric.js';
import { createTextMatchMetric } from './deterministic/text-match-metric.js';
import { createSimilarMetric } from './embedding/similar-metric.js';
import { createAgentJudgeMetric } from './judge/agent-judge-metrics.js';
import { createConversationJudgeMetric } from './judge/conversation-judge-metrics.js';
import {
  createAnswerRelevancyMetric,
  createContextualPrecisionMetric,
  createContextualRecallMetric,
  createContextualRelevancyMetric,
  createFaithfulnessMetric,
  createGEvalMetric,
  createRubricMetric,
} from './judge/index.js';
import { createRefusalMetric } from './judge/refusal-metric.js';
import { withStrictMode } from './judge/strict-mode-metric.js';
import type { Metric } from './metric.js';
import { createNlpMetric } from './nlp-metric.js';

/** Metric types graded by the judge model. */
export const JUDGE_METRIC_TYPES = new Set<MetricConfig['type']>([
  'g-eval',
  'rubric',
  'faithfulness',
  'answer_relevancy',
  'contextual_precision',
  'contextual_recall',
  'contextual_relevancy',
  'is-refusal',
  'not-is-refusal',
  'task_completion',
  'argument_correctness',
  'step_efficiency',
  'plan_adherence',
  'knowledge_retention',
  'role_adherence',
  'conversation_relevancy',
  'conversation_completeness',
]);

async function loadSchemaFile(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const missing = error instanceof Error && 'code' in error && error.code === 'ENOENT';
    throw new Error(missing ? `json-schema file not found: ${file}` : `cannot read json-schema file ${file}`);
  }
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
    throw new Error(`cannot parse json-schema file ${file}: ${reason}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${file} does not hold a JSON Schema object`);
  }
  return parsed as Record<string, unknown>;
}

/**
 * Builds a ready Metric from its agent.yaml entry. Files a metric names (a code grader, a
 * json-schema file) resolve against `baseDirectory` and load now, so a missing file fails the
 * suite before any agent runs.
 */
export async function createMetric(config: MetricConfig, baseDirectory: string): Promise<Metric> {
  const built = await buildMetric(config, baseDirectory);
  const metric = 'strict_mode' in config && config.strict_mode === true ? withStrictMode(built) : built;
  return config.weight === undefined ? metric : { ...metric, weight: config.weight };
}

async function buildMetric(config: MetricConfig, baseDirectory: string): Promise<Metric> {
  switch (config.type) {
    case 'equals':
    case 'contains':
    case 'icontains':
    case 'contains-any':
    case 'contains-all':
    case 'icontains-any':
    case 'icontains-all':
    case 'regex':
    case 'not-equals':
    case 'not-contains':
    case 'not-icontains':
    case 'not-contains-any':
    case 'not-contains-all':
    case 'not-icontains-any':
    case 'not-icontains-all':
    case 'not-regex':
      return createTextMatchMetric(config);
    case 'is-json':
    case 'not-is-json':
      return createJsonMetric(config);
    case 'json-schema':
    case 'not-json-schema':
      return createJsonMetric(
        config,
        typeof config.value === 'string'
          ? await loadSchemaFile(path.resolve(baseDirectory, config.value))
          : config.value,
      );
    case 'starts-with':
    case 'ends-with':
    case 'not-starts-with':
    case 'not-ends-with':
      return createAffixMetric(config);
    case 'word-count':
      return createWordCountMetric(config);
    case 'is-xml':
    case 'is-yaml':
    case 'is-csv':
    case 'not-is-xml':
    case 'not-is-yaml':
    case 'not-is-csv':
      return createDocumentFormatMetric(config);
    case 'contains-json':
      return createContainsJsonMetric(
        config,
        typeof config.value === 'string'
          ? await loadSchemaFile(path.resolve(baseDirectory, config.value))
          : undefined,
      );
    case 'pii':
      return createPiiMetric(config);
    case 'expression':
      return createExpressionMetric(config);
    case 'latency':
    case 'cost':
    case 'turns':
      return createBudgetMetric(config);
    case 'bleu':
    case 'rouge':
    case 'meteor':
    case 'levenshtein':
      return createNlpMetric(config);
    case 'g-eval':
      return createGEvalMetric(config);
    case 'rubric':
      return createRubricMetric(config);
    case 'is-refusal':
    case 'not-is-refusal':
      return createRefusalMetric(config);
    case 'similar':
      return createSimilarMetric(config);
    case 'task_completion':
    case 'argument_correctness':
    case 'step_efficiency':
    case 'plan_adherence':
      return createAgentJudgeMetric(config);
    case 'knowledge_retention':
    case 'role_adherence':
    case 'conversation_relevancy':
    case 'conversation_completeness':
      return createConversationJudgeMetric(config);
    case 'faithfulness':
      return createFaithfulnessMetric(config);
    case 'answer_relevancy':
      return createAnswerRelevancyMetric(config);
    case 'contextual_precision':
      return createContextualPrecisionMetric(config);
    case 'contextual_recall':
      return createContextualRecallMetric(config);
    case 'contextual_relevancy':
      return createContextualRelevancyMetric(config);
    case 'code': {
      const resolved = { ...config, file: path.resolve(baseDirectory, config.file) };
      return createCodeMetric(resolved, await loadGrader(resolved));
    }
  }
}
