import type { FieldPath, MetricConfig, TestCase } from '../config/index.js';
import type { ConfigIssue } from '../errors.js';
import type { CaseSource } from './prepare-suite.js';

/** What a metric reads from its test case besides the response. */
type CaseInput = 'reference' | 'context' | 'ground_truth';

/** The inputs each metric type cannot run without (a missing one would fail every attempt). */
function requiredInputs(metric: MetricConfig): CaseInput[] {
  switch (metric.type) {
    case 'bleu':
    case 'rouge':
    case 'meteor':
    case 'levenshtein':
    case 'similar':
      // `value` on the metric is its own reference.
      return metric.value === undefined ? ['reference'] : [];
    case 'faithfulness':
    case 'contextual_relevancy':
      return ['context'];
    case 'contextual_precision':
    case 'contextual_recall':
      return ['context', 'ground_truth'];
    default:
      return [];
  }
}

const FIX: Record<CaseInput, string> = {
  reference: 'add ground_truth to the test case, or value to the metric',
  context: 'add context (the retrieved passages) to the test case',
  ground_truth: 'add ground_truth (the expected answer) to the test case',
};

const NEEDS: Record<CaseInput, string> = {
  reference: 'a reference text (ground_truth or value)',
  context: 'context',
  ground_truth: 'ground_truth',
};

type IssueAt = (source: CaseSource, field: FieldPath, message: string, hint?: string) => ConfigIssue;

function hasText(text: string | undefined): boolean {
  return text !== undefined && text.trim() !== '';
}

/** What the agent itself gives metrics besides its test cases. */
export interface CaseInputSources {
  /**
   * The agent has a retrieval tool (vectorstore, hierarchical_document): a case without `context`
   * is graded on the passages its searches return in the run, so RAG metrics need none.
   */
  retrievalContext?: boolean;
}

/**
 * Metrics whose case lacks what they read: `bleu`/`rouge`/`meteor`/`levenshtein` without
 * `ground_truth` or `value`, RAG metrics without `context` (unless the agent has a retrieval tool
 * to fill it) and `ground_truth` for precision and recall. Checked where each metric grades: a
 * turn's metrics against that turn, the case's (or the default `evaluations.metrics`) against the
 * final answer.
 */
export function checkCaseInputs(
  testCase: TestCase,
  source: CaseSource,
  defaults: readonly MetricConfig[],
  issueAt: IssueAt,
  sources: CaseInputSources = {},
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const lastTurn = testCase.turns?.at(-1);
  const check = (
    metrics: readonly MetricConfig[],
    field: FieldPath,
    available: { groundTruth?: string | undefined; context?: string[] | undefined },
    fromDefaults: boolean,
  ) => {
    for (const [index, metric] of metrics.entries()) {
      const missing = requiredInputs(metric).filter((input) =>
        input === 'context'
          ? !sources.retrievalContext && !available.context?.some((chunk) => chunk.trim() !== '')
          : !hasText(available.groundTruth),
      );
      for (const input of missing) {
        const label = metric.name ?? metric.type;
        const where = fromDefaults ? ` (from evaluations.metrics[${index}])` : '';
        issues.push(
          issueAt(
            source,
            fromDefaults ? [] : [...field, index],
            `metric ${label}${where} of test case "${testCase.name}" needs ${NEEDS[input]}, which the case does not give`,
            FIX[input],
          ),
        );
      }
    }
  };
  const caseMetrics = testCase.metrics ?? defaults;
  check(
    caseMetrics,
    ['metrics'],
    {
      groundTruth: testCase.ground_truth ?? lastTurn?.ground_truth,
      context: lastTurn?.context ?? testCase.context,
    },
    testCase.metrics === undefined,
  );
  for (const [turnIndex, turn] of (testCase.turns ?? []).entries()) {
    check(
      turn.metrics ?? [],
      ['turns', turnIndex, 'metrics'],
      { groundTruth: turn.ground_truth, context: turn.context ?? testCase.context },
      false,
    );
  }
  return issues;
}
