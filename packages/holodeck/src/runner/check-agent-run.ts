import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { backendProfile } from '../backends/select-backend.js';
import type { AgentValidation, ConfigWarning, LoadedAgent } from '../config/index.js';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { type AgentFileOptions, validateAgent } from '../load-agent.js';
import { loadFunctionTools } from '../tools/index.js';
import { inspectSuite } from './prepare-suite.js';
import { judgeWarnings } from './suite-judge.js';

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

/** Whether `command` names an executable file (a path) or one on PATH. */
function onPath(command: string, pathVariable: string | undefined): boolean {
  const executable = (file: string) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes('/')) return executable(command);
  return (pathVariable ?? '')
    .split(path.delimiter)
    .some((folder) => folder !== '' && executable(path.join(folder, command)));
}

/** MCP servers whose `command` is not found: the run would stop at start-up (a warning: PATH may differ there). */
function mcpCommandWarnings(agent: LoadedAgent): ConfigWarning[] {
  return (agent.config.tools ?? []).flatMap((tool, index) => {
    if (tool.type !== 'mcp' || tool.command === undefined) return [];
    const command =
      tool.cwd && tool.command.includes('/') ? path.resolve(tool.cwd, tool.command) : tool.command;
    if (onPath(command, agent.env.PATH)) return [];
    return [
      {
        code: 'mcp-command-not-found',
        path: `tools[${index}].command`,
        file: agent.file,
        ...(agent.locate ? { line: agent.locate(['tools', index, 'command']).line } : {}),
        message: `MCP server "${tool.name}" (tools[${index}]): command "${tool.command}" is not on PATH here, so the server would not start; install it or give its full path`,
      },
    ];
  });
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
    ...mcpCommandWarnings(agent),
    ...(suite.suite?.usesJudge ? judgeWarnings(agent) : []),
  ];
  const matrix = await matrixChecks(agent);
  warnings.push(...matrix.warnings);
  const issues = [...validation.issues, ...toolIssues, ...suite.issues, ...matrix.issues].sort(byPosition);
  return issues.length ? { issues, warnings } : { issues, warnings, agent };
}

/** agent.yaml's `matrix:`, every variant checked as `holodeck test` checks it; missing credentials are warnings here. */
async function matrixChecks(
  agent: LoadedAgent,
): Promise<{ issues: ConfigIssue[]; warnings: ConfigWarning[] }> {
  if (!agent.config.matrix) return { issues: [], warnings: [] };
  const [{ resolveMatrix }, { inspectMatrix }] = await Promise.all([
    import('./matrix/resolve-matrix.js'),
    import('./matrix/run-matrix.js'),
  ]);
  const written = await resolveMatrix(agent);
  if (!written) return { issues: [], warnings: [] };
  const inspection = await inspectMatrix(agent, written);
  return {
    issues: inspection.issues,
    warnings: [
      ...inspection.warnings,
      ...inspection.missingCredentials.map((issue) => ({
        code: 'credentials-missing' as const,
        message: `${issue.message}: \`holodeck test\` will stop until it is.`,
        file: issue.file,
        ...(issue.line !== undefined ? { line: issue.line } : {}),
        path: issue.path,
      })),
    ],
  };
}

/** agent.yaml's problems first, then the other files', each file's in line order. */
function byPosition(a: ConfigIssue, b: ConfigIssue): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return (
    (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER) ||
    (a.column ?? 0) - (b.column ?? 0)
  );
}
