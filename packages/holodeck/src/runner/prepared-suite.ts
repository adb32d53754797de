import type { ConfigWarning, FieldPath, TestCase, YamlPosition } from '../config/index.js';
import type { ConfigIssue } from '../errors.js';
import type { Metric } from '../evals/metric.js';

// The shapes of a prepared suite (prepare-suite.ts builds them), apart so that the steps of the
// inspection can share them without importing each other.

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
