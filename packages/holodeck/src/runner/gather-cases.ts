import type { FieldPath, LoadedAgent, TestCase } from '../config/index.js';
import { findCaseFiles, loadTestCasesFile } from '../config/index.js';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { agentSourceOf, DEFAULTS_PATH, issueAt } from './case-source.js';
import { expandCase } from './expand-case.js';
import type { CaseSource } from './prepared-suite.js';

/** A test case as written, with where it is written. */
export interface GatheredCase {
  config: TestCase;
  source: CaseSource;
}

/** The sources of every case: agent.yaml's `test_cases`, then each `test_cases_file`'s in order. */
export async function gatherCases(agent: LoadedAgent, issues: ConfigIssue[]): Promise<GatheredCase[]> {
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
  const agentSource = agentSourceOf(agent);
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
export function expandCases(
  agent: LoadedAgent,
  gathered: GatheredCase[],
  issues: ConfigIssue[],
): GatheredCase[] {
  const agentSource = agentSourceOf(agent);
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
