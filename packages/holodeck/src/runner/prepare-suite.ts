import path from 'node:path';
import { backendProfile } from '../backends/select-backend.js';
import type {
  ConfigWarning,
  FieldPath,
  LoadedAgent,
  MetricConfig,
  TestCase,
  TestTurn,
  YamlPosition,
} from '../config/index.js';
import { findCaseFiles, formatFieldPath, loadTestCasesFile } from '../config/index.js';
import { ConfigError, type ConfigIssue } from '../errors.js';
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
import { retrievalToolEntries } from '../tools/retrieval/retrieval-tool-entries.js';
import { checkCaseInputs } from './check-case-inputs.js';
import { costLimitIssues } from './check-case-limits.js';
import { expandCase } from './expand-case.js';
import { describeKnownTools, isKnownToolName, knownToolNames } from './known-tool-names.js';

/** Where a test case is written: agent.yaml's `test_cases` or the `test_cases_file`. */
export interface CaseSource {
  file: string;
  /** The case's field path as users read it, e.g. `['test_cases', 2]`. */
  path: FieldPath;
  /** Line and column of a field path of that file. */
  locate?: (path: FieldPath) => YamlPosition;
}

/** A test case with its metrics built and its files loaded. */
export interface PreparedCase {
  /** Position in the suite (declaration order), used for sharding. */
  index: number;
  config: TestCase;
  /** Metrics of the answer (the case's own, else evaluations.metrics). */
  metrics: Metric[];
  /** For a conversation: each turn's own checks (tool expectations and turn metrics). */
  turnMetrics: Metric[][];
  source: CaseSource;
}

/** A tool name in expectations that only the started agent can tell apart (an MCP tool's short name). */
export interface DeferredToolName {
  name: string;
  caseName: string;
  source: CaseSource;
  /** The field below the case, e.g. `['expected_tools', 0]`. */
  field: FieldPath;
}

export interface PreparedSuite {
  cases: PreparedCase[];
  /** True when some metric needs the judge model. */
  usesJudge: boolean;
  /** Names resolved against the tools the agent is offered when the run starts (resolveToolNames). */
  deferredToolNames: DeferredToolName[];
  /** Short name → runtime name, filled when the run starts; the tool metrics read it. */
  toolNames: Map<string, string>;
}

/** What inspecting a suite found: the suite when there are no issues, every issue otherwise. */
export interface SuiteInspection {
  suite?: PreparedSuite;
  issues: ConfigIssue[];
  warnings: ConfigWarning[];
}

/** Where a default metric (evaluations.metrics) is. */
const DEFAULTS_PATH = ['evaluations', 'metrics'];

function issueAt(source: CaseSource, field: FieldPath, message: string, hint?: string): ConfigIssue {
  const fieldPath = [...source.path, ...field];
  const position = source.locate?.(fieldPath);
  return {
    file: source.file,
    ...(position ? { line: position.line, column: position.column } : {}),
    path: formatFieldPath(fieldPath),
    message,
    ...(hint ? { hint } : {}),
  };
}

/** The sources of every case: agent.yaml's `test_cases`, then each `test_cases_file`'s in order. */
async function gatherCases(
  agent: LoadedAgent,
  issues: ConfigIssue[],
): Promise<{ config: TestCase; source: CaseSource }[]> {
  const inline = (agent.config.test_cases ?? []).map((config, index) => ({
    config,
    source: {
      file: agent.file,
      path: ['test_cases', index],
      ...(agent.locate ? { locate: agent.locate } : {}),
    },
  }));
  const setting = agent.config.test_cases_file;
  if (!setting) return inline;
  const agentSource: CaseSource = {
    file: agent.file,
    path: [],
    ...(agent.locate ? { locate: agent.locate } : {}),
  };
  const several = typeof setting !== 'string';
  const patterns = typeof setting === 'string' ? [setting] : setting;
  const field = (index: number): FieldPath => (several ? ['test_cases_file', index] : ['test_cases_file']);
  const gathered = [...inline];
  for (const [index, match] of (await findCaseFiles(patterns)).entries()) {
    if (match.problem)
      issues.push(issueAt(agentSource, field(index), match.problem.message, match.problem.hint));
    for (const file of match.files) {
      try {
        const loaded = await loadTestCasesFile(file);
        gathered.push(
          ...loaded.cases.map((config, caseIndex) => ({
            config,
            source: {
              file,
              path: [...loaded.listPath, caseIndex],
              locate: (fieldPath: FieldPath) => loaded.locate(fieldPath.slice(loaded.listPath.length)),
            },
          })),
        );
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        for (const issue of error.issues) {
          // A missing file is a problem of agent.yaml's test_cases_file line; one inside it, of that file.
          issues.push(
            issue.line === undefined
              ? issueAt(agentSource, field(index), `${issue.message}: ${file}`, issue.hint)
              : issue,
          );
        }
      }
    }
  }
  return gathered;
}

/**
 * Each case as it runs (expandCase): default_case merged in, thresholds and `{{ vars }}` applied.
 * A problem is reported in the case's own file, at default_case or at evaluations.metrics, where
 * the field it is in was written.
 */
function expandCases(
  agent: LoadedAgent,
  gathered: { config: TestCase; source: CaseSource }[],
  issues: ConfigIssue[],
): { config: TestCase; source: CaseSource }[] {
  const agentSource: CaseSource = {
    file: agent.file,
    path: [],
    ...(agent.locate ? { locate: agent.locate } : {}),
  };
  const defaultCase = agent.config.default_case;
  const defaultMetrics = agent.config.evaluations?.metrics ?? [];
  return gathered.map(({ config, source }) => ({
    source,
    config: expandCase(
      config,
      { ...(defaultCase ? { defaultCase } : {}), defaultMetrics },
      (place, field, message, hint) =>
        issues.push(
          place === 'case'
            ? issueAt(source, field, message, hint)
            : issueAt(
                agentSource,
                [...(place === 'default' ? ['default_case'] : DEFAULTS_PATH), ...field],
                message,
                hint,
              ),
        ),
    ),
  }));
}

/**
 * Gathers the test cases (agent.yaml `test_cases` and `test_cases_file`), checks names, tool
 * expectations and what each metric needs, and builds every metric (code graders and json-schema
 * files are loaded). Everything is reported at once, each problem at its file:line:column. The
 * same inspection runs for `holodeck test` (prepareSuite) and `holodeck validate`.
 * `requireCases`: an agent without test cases is an issue (`test`), or fine (`validate`).
 */
export async function inspectSuite(
  agent: LoadedAgent,
  options: {
    requireCases: boolean;
    /** The agent as written, when `agent` is it with side effects off (`holodeck test`). */
    withSideEffects?: LoadedAgent;
  },
): Promise<SuiteInspection> {
  const { config } = agent;
  const issues: ConfigIssue[] = [];
  const warnings: ConfigWarning[] = [];
  const written = await gatherCases(agent, issues);
  issues.push(...costLimitIssues(agent, written, issueAt));
  const gathered = expandCases(agent, written, issues);
  const agentSource: CaseSource = {
    file: agent.file,
    path: [],
    ...(agent.locate ? { locate: agent.locate } : {}),
  };
  if (!gathered.length && options.requireCases && !issues.length)
    issues.push(
      issueAt(
        agentSource,
        [],
        'there are no test cases to run',
        'add test_cases to agent.yaml or set test_cases_file',
      ),
    );

  const known = knownToolNames(config);
  // The tools `holodeck test` turns off unless --allow-side-effects (Write, Edit, Bash): an
  // expectation naming one is told so, not "unknown tool".
  const offInTests = sideEffectToolNames(agent, options.withSideEffects);
  const offMessage = (caseName: string, name: string) =>
    `test case "${caseName}" expects tool "${name}", which holodeck test turns off: side effects are off unless --allow-side-effects`;
  const offHint =
    'run holodeck test --allow-side-effects (each case gets its own copy of the working directory), or drop the expectation';
  const deferredToolNames: DeferredToolName[] = [];
  const seen = new Map<string, CaseSource>();
  for (const { config: testCase, source } of gathered) {
    const earlier = seen.get(testCase.name);
    if (earlier)
      issues.push(
        issueAt(
          source,
          ['name'],
          `duplicate test case name "${testCase.name}"`,
          `${formatFieldPath(earlier.path)} in ${path.basename(earlier.file)} has it already`,
        ),
      );
    else seen.set(testCase.name, source);
    if ((testCase.expected_verdicts || testCase.expect_killed !== undefined) && !config.governance) {
      issues.push(
        issueAt(
          source,
          [],
          `test case "${testCase.name}" expects Novarch verdicts, but the agent has no governance block`,
          'add governance: to agent.yaml, or remove expected_verdicts / expect_killed',
        ),
      );
    }
    const places: { prefix: FieldPath; owner: TestCase | TestTurn }[] = [
      { prefix: [], owner: testCase },
      ...(testCase.turns ?? []).map((turn, index) => ({ prefix: ['turns', index], owner: turn })),
    ];
    for (const { prefix, owner } of places) {
      const named: { name: string; field: FieldPath }[] = [
        ...(owner.expected_tools ?? []).map((entry, index) => ({
          name: typeof entry === 'string' ? entry : entry.name,
          field: [...prefix, 'expected_tools', index],
        })),
        ...(owner.forbidden_tools ?? []).map((name, index) => ({
          name,
          field: [...prefix, 'forbidden_tools', index],
        })),
        ...trajectoryToolNames(owner, prefix),
      ];
      for (const { name, field } of named) {
        if (offInTests.has(name)) {
          const off = {
            code: 'tool-off-in-tests' as const,
            message: `${offMessage(testCase.name, name)}; ${offHint}`,
            file: source.file,
          };
          if (options.withSideEffects)
            issues.push(issueAt(source, field, offMessage(testCase.name, name), offHint));
          // validate: the agent has it, so it is a warning about what `holodeck test` will do.
          else if (field.includes('expected_tools')) warnings.push(off);
          continue;
        }
        if (isKnownToolName(name, known)) continue;
        // A name none of the declared tools has may be a tool of an MCP server: only the started
        // agent knows those, so it is resolved when the run starts.
        if (known.mcpServers.length) {
          deferredToolNames.push({ name, caseName: testCase.name, source, field });
          continue;
        }
        issues.push(
          issueAt(
            source,
            field,
            `test case "${testCase.name}" expects unknown tool "${name}"`,
            describeKnownTools(known),
          ),
        );
      }
    }
    issues.push(
      ...checkCaseInputs(testCase, source, config.evaluations?.metrics ?? [], issueAt, {
        retrievalContext: retrievalToolEntries(config.tools).length > 0,
      }),
    );
  }
  if (deferredToolNames.length) {
    const names = [...new Set(deferredToolNames.map((entry) => `"${entry.name}"`))].join(', ');
    warnings.push({
      code: 'tool-names-resolved-at-run-start',
      message: `expected/forbidden tool ${names} is none of the agent's function or built-in tools; it must be a tool of MCP server ${known.mcpServers.join(', ')}, which \`holodeck test\` checks when the run starts`,
      file: agent.file,
    });
  }

  const toolNames = new Map<string, string>();
  const resolveName = (name: string) => toolNames.get(name) ?? name;
  let usesJudge = false;
  /** Builds one metric; a problem is reported at `where` (its agent.yaml entry) and yields undefined. */
  const unknownCost = backendProfile(config.model.provider).unknownCostReason(config);
  const build = async (entry: MetricConfig, where: CaseSource, field: FieldPath) => {
    if (JUDGE_METRIC_TYPES.has(entry.type)) usesJudge = true;
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
        error instanceof GraderLoadError
          ? [error.field]
          : entry.type.endsWith('json-schema')
            ? ['value']
            : [];
      issues.push(issueAt(where, [...field, ...subField], errorMessage(error)));
      return undefined;
    }
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
  if (issues.length) return { issues, warnings };
  return { suite: { cases, usesJudge, deferredToolNames, toolNames }, issues, warnings };
}

/** The trajectory expectations of a case or turn. */
function trajectoryOf(owner: TestCase | TestTurn): TrajectoryExpectations {
  return {
    ...(owner.expected_tool_sequence !== undefined ? { sequence: owner.expected_tool_sequence } : {}),
    ...(owner.called_before !== undefined ? { calledBefore: owner.called_before } : {}),
    ...(owner.max_tool_calls !== undefined ? { maxToolCalls: owner.max_tool_calls } : {}),
  };
}

/** The tool names the trajectory fields of a case or turn name, each with its field. */
function trajectoryToolNames(
  owner: TestCase | TestTurn,
  prefix: FieldPath,
): { name: string; field: FieldPath }[] {
  const sequence = owner.expected_tool_sequence;
  const steps = sequence === undefined ? [] : Array.isArray(sequence) ? sequence : sequence.tools;
  const stepsField = Array.isArray(sequence)
    ? ['expected_tool_sequence']
    : ['expected_tool_sequence', 'tools'];
  const before = owner.called_before;
  const pairs =
    before === undefined
      ? []
      : typeof before[0] === 'string'
        ? [before as [string, string]]
        : (before as [string, string][]);
  const single = before !== undefined && typeof before[0] === 'string';
  const limits = owner.max_tool_calls;
  return [
    ...steps.map((step, index) => ({
      name: typeof step === 'string' ? step : step.name,
      field: [...prefix, ...stepsField, index],
    })),
    ...pairs.flatMap((pair, index) =>
      pair.map((name, side) => ({
        name,
        field: [...prefix, 'called_before', ...(single ? [] : [index]), side],
      })),
    ),
    ...Object.keys(typeof limits === 'object' ? (limits.per_tool ?? {}) : {}).map((name) => ({
      name,
      field: [...prefix, 'max_tool_calls', 'per_tool', name],
    })),
  ];
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

/**
 * Tool names the agent as written has and its side-effect-free copy lacks: with `withSideEffects`,
 * `agent` is that copy; without, the copy is made here (validate).
 */
function sideEffectToolNames(agent: LoadedAgent, withSideEffects: LoadedAgent | undefined): Set<string> {
  const full = withSideEffects ?? agent;
  const reduced = withSideEffects
    ? agent
    : backendProfile(full.config.model.provider).sideEffects(full).withoutSideEffects();
  const without = knownToolNames(reduced.config).names;
  return new Set([...knownToolNames(full.config).names].filter((name) => !without.has(name)));
}

/** The suite of `holodeck test`; throws one ConfigError with every problem inspectSuite found. */
export async function prepareSuite(
  agent: LoadedAgent,
  withSideEffects?: LoadedAgent,
): Promise<PreparedSuite> {
  const inspection = await inspectSuite(agent, {
    requireCases: true,
    ...(withSideEffects && withSideEffects !== agent ? { withSideEffects } : {}),
  });
  if (!inspection.suite) throw new ConfigError(inspection.issues);
  return inspection.suite;
}
