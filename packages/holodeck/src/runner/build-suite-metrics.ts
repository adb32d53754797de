import { backendProfile } from '../backends/select-backend.js';
import type { FieldPath, LoadedAgent, MetricConfig, TestCase, TestTurn } from '../config/index.js';
import { formatFieldPath } from '../config/index.js';
import type { ConfigIssue } from '../errors.js';
import { GraderLoadError } from '../evals/code/code-metric.js';
import { createMetric, JUDGE_METRIC_TYPES } from '../evals/create-metric.js';
import type { Metric } from '../evals/metric.js';
import { createGovernanceMetric } from '../evals/tools/governance-expectations-metric.js';
import { createToolExpectationsMetric } from '../evals/tools/tool-expectations-metric.js';
import {
  createTrajectoryMetric,
  hasTrajectory,
  type TrajectoryExpectations,
} from '../evals/tools/trajectory-metric.js';
import { errorMessage } from '../support.js';
import { agentSourceOf, DEFAULTS_PATH, issueAt } from './case-source.js';
import type { GatheredCase } from './gather-cases.js';
import type { CaseSource, PreparedCase } from './prepared-suite.js';

/** The metrics of a suite, built: each case's and turn's, and whether any needs the judge. */
export interface SuiteMetrics {
  cases: PreparedCase[];
  usesJudge: boolean;
  /** Short name → runtime name, filled when the run starts; the tool metrics read it. */
  toolNames: Map<string, string>;
}

/**
 * Builds every metric of every case (the defaults once, shared), loading code graders and
 * json-schema files; a metric that cannot be built is an issue at its agent.yaml entry.
 */
export async function buildSuiteMetrics(
  agent: LoadedAgent,
  gathered: GatheredCase[],
  issues: ConfigIssue[],
): Promise<SuiteMetrics> {
  const { config } = agent;
  const agentSource = agentSourceOf(agent);
  const toolNames = new Map<string, string>();
  const resolveName = (name: string) => toolNames.get(name) ?? name;
  let usesJudge = false;
  const unknownCost = backendProfile(config.model.provider).unknownCostReason(config);
  const build = (entry: MetricConfig, where: CaseSource, field: FieldPath) => {
    if (JUDGE_METRIC_TYPES.has(entry.type)) usesJudge = true;
    return buildMetric(agent, entry, { where, field, unknownCost, issues });
  };
  const buildAll = async (entries: readonly MetricConfig[], where: CaseSource, field: FieldPath) => {
    const built = await Promise.all(entries.map((entry, index) => build(entry, where, [...field, index])));
    return built.filter((metric): metric is Metric => metric !== undefined);
  };
  const toolMetrics = (owner: TestCase | TestTurn): Metric[] => {
    const expected = owner.expected_tools ?? [];
    const forbidden = owner.forbidden_tools ?? [];
    const trajectory = trajectoryOf(owner);
    return [
      ...(expected.length || forbidden.length
        ? [createToolExpectationsMetric(expected, forbidden, resolveName)]
        : []),
      ...(hasTrajectory(trajectory) ? [createTrajectoryMetric(trajectory, resolveName)] : []),
    ];
  };
  // Default metrics are built once and shared by the cases that use them.
  const defaults = await buildAll(
    config.evaluations?.metrics ?? [],
    { ...agentSource, path: [] },
    DEFAULTS_PATH,
  );
  const cases: PreparedCase[] = [];
  for (const [index, { config: testCase, source }] of gathered.entries()) {
    const governance =
      testCase.expected_verdicts || testCase.expect_killed !== undefined
        ? [createGovernanceMetric(testCase.expected_verdicts ?? [], testCase.expect_killed)]
        : [];
    const own = testCase.metrics ? await buildAll(testCase.metrics, source, ['metrics']) : defaults;
    const metrics = withCaseVars(
      [...own, ...(testCase.turns ? [] : toolMetrics(testCase)), ...governance],
      testCase.vars,
    );
    const turnMetrics = await Promise.all(
      (testCase.turns ?? []).map(async (turn, turnIndex) =>
        withCaseVars(
          [
            ...(turn.metrics ? await buildAll(turn.metrics, source, ['turns', turnIndex, 'metrics']) : []),
            ...toolMetrics(turn),
          ],
          testCase.vars,
        ),
      ),
    );
    const all = [...metrics, ...turnMetrics.flat()];
    if (all.length > 0 && all.every((metric) => metric.weight === 0))
      issues.push(
        issueAt(
          source,
          ['metrics'],
          `every metric of test case "${testCase.name}" has weight 0, so nothing decides whether it passes`,
          'give at least one metric a weight above 0 (weight 0 = reported, not deciding)',
        ),
      );
    cases.push({ index, config: testCase, metrics, turnMetrics, source });
  }
  return { cases, usesJudge, toolNames };
}

/**
 * Builds one metric; a problem is reported at `where` (its agent.yaml entry), and yields undefined.
 * `unknownCost`: why this agent's runs have no cost, if they have none.
 */
async function buildMetric(
  agent: LoadedAgent,
  entry: MetricConfig,
  at: { where: CaseSource; field: FieldPath; unknownCost: string | undefined; issues: ConfigIssue[] },
): Promise<Metric | undefined> {
  const { config } = agent;
  const { where, field, unknownCost, issues } = at;
  if (entry.type === 'cost' && unknownCost !== undefined) {
    issues.push(
      issueAt(
        where,
        [...field, 'type'],
        `a cost metric needs the run's cost, which is unknown here (${unknownCost}), so it could never be graded`,
        'set pricing: in agent.yaml, or remove the cost metric and budget tokens or turns instead (metric turns)',
      ),
    );
    return undefined;
  }
  if (entry.type === 'similar') {
    const provider = entry.embedding_provider ?? config.embedding_provider ?? config.model;
    if (provider.provider === 'anthropic') {
      issues.push(
        issueAt(
          where,
          [...field, ...(entry.embedding_provider ? ['embedding_provider', 'provider'] : ['type'])],
          'similar compares embeddings, and provider anthropic has no embeddings API',
          'add embedding_provider to agent.yaml or to the metric, e.g. embedding_provider: {provider: openai, name: text-embedding-3-small}',
        ),
      );
      return undefined;
    }
  }
  try {
    return await createMetric(entry, agent.directory);
  } catch (error) {
    if (error instanceof GraderLoadError && error.problem?.line !== undefined) {
      const { problem } = error;
      issues.push({
        file: problem.file,
        line: problem.line,
        ...(problem.column !== undefined ? { column: problem.column } : {}),
        path: formatFieldPath([...where.path, ...field, 'file']),
        message: error.message,
      });
      return undefined;
    }
    const subField =
      error instanceof GraderLoadError ? [error.field] : entry.type.endsWith('json-schema') ? ['value'] : [];
    issues.push(issueAt(where, [...field, ...subField], errorMessage(error)));
    return undefined;
  }
}

/** The trajectory expectations of a case or turn. */
function trajectoryOf(owner: TestCase | TestTurn): TrajectoryExpectations {
  return {
    ...(owner.expected_tool_sequence !== undefined ? { sequence: owner.expected_tool_sequence } : {}),
    ...(owner.called_before !== undefined ? { calledBefore: owner.called_before } : {}),
    ...(owner.max_tool_calls !== undefined ? { maxToolCalls: owner.max_tool_calls } : {}),
  };
}

/** The metrics, each given the case's vars with every answer it grades (expressions read them). */
function withCaseVars(metrics: Metric[], vars: TestCase['vars']): Metric[] {
  if (!vars) return metrics;
  return metrics.map((metric) => ({
    name: metric.name,
    type: metric.type,
    ...(metric.weight !== undefined ? { weight: metric.weight } : {}),
    evaluate: (input, context) => metric.evaluate({ ...input, vars }, context),
  }));
}
