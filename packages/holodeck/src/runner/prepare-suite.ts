import type { ConfigWarning, LoadedAgent } from '../config/index.js';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { buildSuiteMetrics } from './build-suite-metrics.js';
import { agentSourceOf, issueAt } from './case-source.js';
import { costLimitIssues } from './check-case-limits.js';
import { checkSuiteCases } from './check-suite-cases.js';
import { expandCases, gatherCases } from './gather-cases.js';
import type { PreparedSuite, SuiteInspection } from './prepared-suite.js';

export type {
  CaseSource,
  DeferredToolName,
  PreparedCase,
  PreparedSuite,
  SuiteInspection,
} from './prepared-suite.js';

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
  const issues: ConfigIssue[] = [];
  const warnings: ConfigWarning[] = [];
  const written = await gatherCases(agent, issues);
  issues.push(...costLimitIssues(agent, written, issueAt));
  const gathered = expandCases(agent, written, issues);
  if (!gathered.length && options.requireCases && !issues.length)
    issues.push(
      issueAt(
        agentSourceOf(agent),
        [],
        'there are no test cases to run',
        'add test_cases to agent.yaml or set test_cases_file',
      ),
    );
  const deferredToolNames = checkSuiteCases(agent, gathered, options.withSideEffects, issues, warnings);
  const { cases, usesJudge, toolNames } = await buildSuiteMetrics(agent, gathered, issues);
  if (issues.length) return { issues, warnings };
  return { suite: { cases, usesJudge, deferredToolNames, toolNames }, issues, warnings };
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
