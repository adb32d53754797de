import { readdir, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type FieldIssue, formatFieldPath, isRecord, locateYamlPath, mapZodIssues } from 'yaml-diagnostics';
import type { ConfigIssue } from '../errors.js';
import { checkGovernance } from './check-governance.js';
import { findDuplicateNames } from './find-duplicate-names.js';
import { findLiteralPasswords } from './find-literal-passwords.js';
import { envSourcesHint, isNodeError, loadEnvFiles } from './load-env-files.js';
import { loadReferencedFiles } from './load-referenced-files.js';
import type { AgentValidation, ConfigWarning, LoadAgentOptions } from './loaded-agent.js';
import { parseAgentYaml } from './parse-agent-yaml.js';
import { resolveAgentConfig } from './resolve-agent-config.js';
import { type AgentConfig, AgentConfigSchema } from './schema/agent-config-schema.js';
import { checkStartupRules, type StartupRuleResult } from './startup-rules.js';
import { substituteEnvVars } from './substitute-env-vars.js';
import { textProblem } from './text-problem.js';

/** A folder stands for its agent.yaml (`holodeck validate .`). */
async function resolveAgentFile(given: string): Promise<string> {
  const isDirectory = await stat(given).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
  return isDirectory ? path.join(given, 'agent.yaml') : given;
}

/** A file next to a missing agent.yaml that is probably the one meant (agent.yml, Agent.yaml…). */
async function nearAgentFile(missing: string): Promise<string | undefined> {
  const names = await readdir(path.dirname(missing)).catch(() => [] as string[]);
  const wanted = path
    .basename(missing)
    .toLowerCase()
    .replace(/\.ya?ml$/, '');
  const near = names.find(
    (name) => /\.ya?ml$/i.test(name) && name.toLowerCase().replace(/\.ya?ml$/, '') === wanted,
  );
  return near ? path.join(path.dirname(missing), near) : undefined;
}

/** agent.yaml's text, or the validation that refuses it (missing, not a file, not UTF-8 text). */
async function readAgentText(agentFile: string): Promise<{ text: string } | { refused: AgentValidation }> {
  const refuse = (message: string, hint: string) => ({
    refused: { issues: [{ file: agentFile, path: '', message, hint }], warnings: [] },
  });
  try {
    if (!(await stat(agentFile)).isFile())
      return refuse('agent file is not a regular file', 'pass the path of an agent.yaml');
    const bytes = await readFile(agentFile);
    const problem = textProblem(bytes);
    if (problem) return refuse(`agent file ${problem}`, 'save agent.yaml as UTF-8 text');
    return { text: bytes.toString('utf8') };
  } catch (error) {
    if (isNodeError(error) && error.code === 'ENOENT') {
      const near = await nearAgentFile(agentFile);
      return refuse(
        'agent file not found',
        near ? `did you mean ${near}?` : 'pass the path of an agent.yaml',
      );
    }
    return refuse(`agent file cannot be read (${String(error)})`, 'pass the path of an agent.yaml');
  }
}

/**
 * Checks agent.yaml and everything it references, collecting every problem instead of stopping at
 * the first. Never throws for configuration problems; `agent` is set only when there are no issues.
 * Phases: read, parse YAML, merge .env files, substitute `${VAR}`, schema, referenced files,
 * unique names, the governance block (and its files, with `checkGovernanceFiles`), then (on a valid
 * schema) path resolution and startup rules (the backend's own with `checkBackendConfig`).
 */
export async function validateAgentFile(
  file: string,
  options: LoadAgentOptions = {},
): Promise<AgentValidation> {
  const agentFile = await resolveAgentFile(path.resolve(file));
  const directory = path.dirname(agentFile);
  const read = await readAgentText(agentFile);
  if ('refused' in read) return read.refused;
  const parsed = parseAgentYaml(read.text);
  if (!parsed.ok) {
    return {
      issues: parsed.problems.map((problem) => ({ file: agentFile, path: '', ...problem })),
      warnings: [],
    };
  }

  const homeDir = options.homeDir ?? os.homedir();
  const environment = await loadEnvFiles({
    agentDirectory: directory,
    homeDir,
    processEnv: options.env ?? process.env,
  });
  const substituted = substituteEnvVars(parsed.data, environment.env, envSourcesHint(directory, homeDir));
  const data = isRecord(substituted.value) ? substituted.value : {};

  const fieldIssues: FieldIssue[] = [...environment.issues, ...parsed.duplicateKeys, ...substituted.issues];
  const schemaResult = AgentConfigSchema.safeParse(data);
  const later: FieldIssue[] = [];
  if (!schemaResult.success) {
    const context = {
      schema: AgentConfigSchema,
      data,
      substitutedPaths: substituted.substitutedPaths,
      fileLabel: 'agent.yaml',
    };
    later.push(...mapZodIssues(schemaResult.error.issues, context));
  }
  const files = await loadReferencedFiles(data, directory);
  later.push(...files.issues, ...findDuplicateNames(data));
  const governance = await checkGovernance(
    data,
    directory,
    substituted.failedPaths,
    options.checkGovernanceFiles,
    environment.env,
  );
  later.push(...governance.fieldIssues);

  const config = schemaResult.success ? resolveAgentConfig(schemaResult.data, directory) : undefined;
  const rules = config ? await runStartupRules(config, options) : { issues: [], warnings: [] };
  later.push(...rules.issues);
  // A value whose ${VAR} could not be substituted is reported once, not again as a bad value.
  fieldIssues.push(...later.filter((issue) => !substituted.failedPaths.has(JSON.stringify(issue.path))));

  const located = locateProblems(parsed, agentFile, fieldIssues, [
    ...rules.warnings,
    ...findLiteralPasswords(parsed.data),
  ]);
  const { issues, warnings, locate } = located;
  issues.push(...governance.fileIssues);
  issues.sort(byPosition);

  if (issues.length > 0 || !config || files.instructions === undefined) return { issues, warnings };
  return {
    issues,
    warnings,
    agent: {
      file: agentFile,
      directory,
      config,
      instructions: files.instructions,
      ...(files.responseFormat ? { responseFormat: files.responseFormat } : {}),
      env: environment.env,
      warnings,
      locate: (fieldPath) => locate({ path: fieldPath }),
    },
  };
}

type ParsedAgentYaml = Extract<ReturnType<typeof parseAgentYaml>, { ok: true }>;
type FieldWarning = StartupRuleResult['warnings'][number];

/** The issues and warnings of agent.yaml at their line and column (an issue of another file keeps its own). */
function locateProblems(
  parsed: ParsedAgentYaml,
  agentFile: string,
  fieldIssues: readonly FieldIssue[],
  fieldWarnings: readonly FieldWarning[],
) {
  const locate = (issue: { path: FieldIssue['path']; anchor?: 'key' | 'value' }) =>
    locateYamlPath(parsed.document, parsed.lineCounter, issue.path, issue.anchor);
  const issues: ConfigIssue[] = fieldIssues.map((issue) => ({
    file: issue.file ?? agentFile,
    ...(issue.file === undefined ? (issue.position ?? locate(issue)) : (issue.position ?? {})),
    path: formatFieldPath(issue.path),
    message: issue.message,
    ...(issue.hint === undefined ? {} : { hint: issue.hint }),
  }));
  const warnings: ConfigWarning[] = fieldWarnings.map((warning) => ({
    code: warning.code,
    message: warning.message,
    path: formatFieldPath(warning.path),
    file: agentFile,
    line: locate(warning).line,
  }));
  return { issues, warnings, locate };
}

/** The neutral rules, then the backend's own (when the caller injected them). */
async function runStartupRules(config: AgentConfig, options: LoadAgentOptions): Promise<StartupRuleResult> {
  const neutral = checkStartupRules(config);
  const backend = options.checkBackendConfig ? await options.checkBackendConfig(config) : undefined;
  return {
    issues: [...neutral.issues, ...(backend?.issues ?? [])],
    warnings: [...neutral.warnings, ...(backend?.warnings ?? [])],
  };
}

function byPosition(a: ConfigIssue, b: ConfigIssue): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return (
    (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER) ||
    (a.column ?? 0) - (b.column ?? 0)
  );
}
