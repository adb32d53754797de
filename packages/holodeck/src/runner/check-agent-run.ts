import { backendProfile } from '../backends/select-backend.js';
import type { AgentValidation, ConfigWarning, LoadedAgent } from '../config/index.js';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { type AgentFileOptions, validateAgent } from '../load-agent.js';
import { loadFunctionTools } from '../tools/index.js';
import { inspectSuite } from './prepare-suite.js';
import { judgeWarnings } from './run-test-suite.js';

/** Imports every function tool module and checks its exports, as a run does; releases them again. */
async function checkFunctionTools(agent: LoadedAgent): Promise<ConfigIssue[]> {
  const entries = (agent.config.tools ?? []).flatMap((tool, index) =>
    tool.type === 'function' ? [{ index, config: tool }] : [],
  );
  if (!entries.length) return [];
  try {
    const loaded = await loadFunctionTools(agent.file, entries, agent.locate);
    await loaded.close();
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues];
    throw error;
  }
}

/**
 * `holodeck validate`: everything `chat` and `test` check before they start a model process, with
 * the same functions they use. agent.yaml and the files it names (validateAgent, as loadAgent),
 * the function tool modules (imported and their exports checked, as the backend's initialize()
 * does), the test suite (test_cases_file, tool names, metric files and what each metric needs,
 * as `test`'s prepareSuite does), and, as warnings, the credentials of the agent's backend and of
 * the judge. Every problem is reported at once, with its file:line:column.
 */
export async function checkAgentRun(file: string, options: AgentFileOptions = {}): Promise<AgentValidation> {
  const validation = await validateAgent(file, options);
  const { agent } = validation;
  if (!agent) return validation;
  const [toolIssues, suite] = await Promise.all([
    checkFunctionTools(agent),
    inspectSuite(agent, { requireCases: false }),
  ]);
  const warnings: ConfigWarning[] = [
    ...validation.warnings,
    ...backendProfile(agent.config.model.provider)
      .credentialWarnings(agent)
      .map((warning) => ({ ...warning })),
    ...suite.warnings,
    ...(suite.suite?.usesJudge ? judgeWarnings(agent) : []),
  ];
  const issues = [...validation.issues, ...toolIssues, ...suite.issues].sort(byPosition);
  return issues.length ? { issues, warnings } : { issues, warnings, agent };
}

/** agent.yaml's problems first, then the other files', each file's in line order. */
function byPosition(a: ConfigIssue, b: ConfigIssue): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return (
    (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER) ||
    (a.column ?? 0) - (b.column ?? 0)
  );
}
