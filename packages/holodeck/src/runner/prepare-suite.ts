import type { LoadedAgent, TestCase } from '../config/index.js';
import { loadTestCasesFile } from '../config/index.js';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { createMetric, JUDGE_METRIC_TYPES } from '../evals/create-metric.js';
import type { Metric } from '../evals/metric.js';
import { createGovernanceMetric } from '../evals/tools/governance-expectations-metric.js';
import { createToolExpectationsMetric } from '../evals/tools/tool-expectations-metric.js';
import { describeKnownTools, isKnownToolName, knownToolNames } from './known-tool-names.js';

/** A test case with its metrics built and its files loaded. */
export interface PreparedCase {
  /** Position in the suite (declaration order), used for sharding. */
  index: number;
  config: TestCase;
  /** Metrics of the answer (the case's own, else evaluations.metrics). */
  metrics: Metric[];
  /** For a conversation: each turn's own checks (tool expectations and turn metrics). */
  turnMetrics: Metric[][];
}

export interface PreparedSuite {
  cases: PreparedCase[];
  /** True when some metric needs the judge model. */
  usesJudge: boolean;
}

function toolsOf(source: {
  expected_tools?: TestCase['expected_tools'];
  forbidden_tools?: string[];
}): Metric[] {
  const expected = source.expected_tools ?? [];
  const forbidden = source.forbidden_tools ?? [];
  return expected.length || forbidden.length ? [createToolExpectationsMetric(expected, forbidden)] : [];
}

/**
 * Gathers the test cases (agent.yaml `test_cases` and `test_cases_file`), checks names and tool
 * expectations, and builds every metric. All problems are reported together as a ConfigError.
 */
export async function prepareSuite(agent: LoadedAgent): Promise<PreparedSuite> {
  const { config } = agent;
  const fromFile = config.test_cases_file ? await loadTestCasesFile(config.test_cases_file) : [];
  const cases = [...(config.test_cases ?? []), ...fromFile];
  const issues: ConfigIssue[] = [];
  const issue = (path: string, message: string, hint?: string) =>
    issues.push({ file: agent.file, path, message, ...(hint ? { hint } : {}) });

  if (!cases.length)
    issue(
      'test_cases',
      'there are no test cases to run',
      'add test_cases to agent.yaml or set test_cases_file',
    );
  const seen = new Set<string>();
  const known = knownToolNames(config);
  for (const [index, testCase] of cases.entries()) {
    if (seen.has(testCase.name))
      issue(`test_cases[${index}].name`, `duplicate test case name "${testCase.name}"`);
    seen.add(testCase.name);
    if ((testCase.expected_verdicts || testCase.expect_killed !== undefined) && !config.governance) {
      issue(
        `test_cases[${index}]`,
        `test case "${testCase.name}" expects Novarch verdicts, but the agent has no governance block`,
        'add governance: to agent.yaml, or remove expected_verdicts / expect_killed',
      );
    }
    const sources = [testCase, ...(testCase.turns ?? [])];
    for (const source of sources) {
      const names = [
        ...(source.expected_tools ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.name)),
        ...(source.forbidden_tools ?? []),
      ];
      for (const name of names.filter((candidate) => !isKnownToolName(candidate, known))) {
        issue(
          `test_cases[${index}]`,
          `test case "${testCase.name}" expects unknown tool "${name}"`,
          describeKnownTools(known),
        );
      }
    }
  }
  if (issues.length) throw new ConfigError(issues);

  const defaults = config.evaluations?.metrics ?? [];
  let usesJudge = false;
  const build = async (entries: readonly NonNullable<TestCase['metrics']>[number][]) => {
    if (entries.some((entry) => JUDGE_METRIC_TYPES.has(entry.type))) usesJudge = true;
    return Promise.all(entries.map((entry) => createMetric(entry, agent.directory)));
  };
  const prepared: PreparedCase[] = [];
  for (const [index, testCase] of cases.entries()) {
    try {
      const governance =
        testCase.expected_verdicts || testCase.expect_killed !== undefined
          ? [createGovernanceMetric(testCase.expected_verdicts ?? [], testCase.expect_killed)]
          : [];
      const metrics = [
        ...(await build(testCase.metrics ?? defaults)),
        ...(testCase.turns ? [] : toolsOf(testCase)),
        ...governance,
      ];
      const turnMetrics = await Promise.all(
        (testCase.turns ?? []).map(async (turn) => [...(await build(turn.metrics ?? [])), ...toolsOf(turn)]),
      );
      prepared.push({ index, config: testCase, metrics, turnMetrics });
    } catch (error) {
      issue(
        `test_cases[${index}].metrics`,
        `a metric of "${testCase.name}" cannot be loaded: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  if (issues.length) throw new ConfigError(issues);
  return { cases: prepared, usesJudge };
}
