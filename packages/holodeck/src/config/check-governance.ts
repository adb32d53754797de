import path from 'node:path';
import { closestMatch, type FieldIssue, isRecord } from 'yaml-diagnostics';
import type { ConfigIssue } from '../errors.js';
import { isToolOfServer, withoutFunctionToolsPrefix } from '../tool-name.js';
import type { CheckGovernanceFiles } from './loaded-agent.js';
import {
  type GovernanceConfig,
  GovernanceConfigSchema,
  NOVARCH_API_KEY_VARIABLE,
} from './schema/governance-config-schema.js';

/** What checking the `governance:` block found. */
export interface GovernanceCheck {
  /** Problems of agent.yaml's governance fields; the loader locates them by path. */
  fieldIssues: FieldIssue[];
  /** Problems inside the rules and config files, already located there. */
  fileIssues: ConfigIssue[];
}

const SPEC_FIELDS = '{action_type, record_id, summary?, amount?}';

/**
 * Cross-checks the `governance:` block on its own, so it runs even when the schema failed elsewhere:
 * every write tool in tool_kinds has a write spec and every write spec belongs to a write tool; with
 * `checkFiles`, also the rules and config files, and that the rules file declares each write spec's
 * action_type (Novarch kills a session that requests an undeclared one). `unresolved` holds the
 * field paths whose ${VAR} is unset: already reported, so those files are not read.
 */
export async function checkGovernance(
  data: Record<string, unknown>,
  directory: string,
  unresolved: ReadonlySet<string>,
  checkFiles?: CheckGovernanceFiles,
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<GovernanceCheck> {
  // A broken block is reported by the schema check; cross-checking it would only add noise.
  const parsed = GovernanceConfigSchema.safeParse(data.governance);
  if (!parsed.success) return { fieldIssues: [], fileIssues: [] };
  const governance = parsed.data;
  const fieldIssues = [
    ...checkWriteSpecKeys(governance),
    ...checkServerKey(governance, env),
    ...checkToolKinds(governance, data.tools),
  ];
  if (!checkFiles) return { fieldIssues, fileIssues: [] };
  const resolve = (field: 'rules_file' | 'config_file'): string | undefined => {
    const value = governance[field];
    if (value === undefined || unresolved.has(JSON.stringify(['governance', field]))) return undefined;
    return path.resolve(directory, value);
  };
  const report = await checkFiles({ rulesFile: resolve('rules_file'), configFile: resolve('config_file') });
  if (report.actionTypes) fieldIssues.push(...checkActionTypes(governance, report.actionTypes));
  // Novarch judges an agent by its team's rules: another team's file would judge nothing of it.
  if (report.team !== undefined && report.team !== governance.team_id)
    fieldIssues.push({
      path: ['governance', 'team_id'],
      message: `team_id is "${governance.team_id}", but ${governance.rules_file ?? 'the rules file'} holds the rules of team "${report.team}"`,
      hint: `set team_id: ${report.team}, or point rules_file at team ${governance.team_id}'s rules`,
    });
  return { fieldIssues, fileIssues: report.issues };
}

/**
 * tool_kinds names the agent's tools (function tools by name, MCP tools as mcp__<server>__<tool>,
 * built-ins such as Write): a key naming none of them classifies nothing, and a function tool
 * missing from it is gated as Novarch's default for unknown tools, which the author did not choose.
 */
export function checkToolKinds(governance: GovernanceConfig, tools: unknown): FieldIssue[] {
  const entries = Array.isArray(tools) ? tools.filter(isRecord) : [];
  // An agent that declares no tools at all has only the CLI's built-ins: nothing to cross-check.
  if (!entries.length) return [];
  const functionTools = entries
    .filter((tool) => tool.type === 'function' && typeof tool.name === 'string')
    .map((tool) => String(tool.name));
  const mcpServers = entries
    .filter((tool) => tool.type === 'mcp' && typeof tool.name === 'string')
    .map((tool) => String(tool.name));
  const retrieval = entries
    .filter(
      (tool) =>
        (tool.type === 'vectorstore' || tool.type === 'hierarchical_document') &&
        typeof tool.name === 'string',
    )
    .map((tool) => `${String(tool.name)}_search`);
  const known = new Set([...functionTools, ...retrieval]);
  const names = (name: string) =>
    known.has(name) ||
    known.has(withoutFunctionToolsPrefix(name)) ||
    BUILTIN_TOOL_NAMES.has(name) ||
    mcpServers.some((server) => isToolOfServer(name, server));
  const issues: FieldIssue[] = [];
  for (const name of Object.keys(governance.tool_kinds)) {
    if (names(name)) continue;
    const match = closestMatch(name, [...known]);
    issues.push({
      path: ['governance', 'tool_kinds', name],
      anchor: 'key',
      message: `tool_kinds names "${name}", which is none of the agent's tools`,
      hint:
        match !== undefined
          ? `did you mean "${match}"?`
          : `name a function tool, a built-in (Write, Bash…) or an MCP tool as mcp__<server>__<tool>; the agent has: ${[...known].join(', ') || 'no function tools'}`,
    });
  }
  const listed = new Set(Object.keys(governance.tool_kinds).map(withoutFunctionToolsPrefix));
  for (const name of functionTools.filter((tool) => !listed.has(tool)))
    issues.push({
      path: ['governance', 'tool_kinds'],
      message: `function tool "${name}" is missing from tool_kinds, so governance does not know whether it reads or writes`,
      hint: `add ${name}: read (its result becomes evidence) or ${name}: write (with a write spec)`,
    });
  return issues;
}

/** Built-in tools of the Claude CLI that tool_kinds may classify. */
const BUILTIN_TOOL_NAMES = new Set([
  'Bash',
  'Read',
  'Write',
  'Edit',
  'MultiEdit',
  'Glob',
  'Grep',
  'LS',
  'NotebookEdit',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
  'Task',
]);

/** With `server:`, the agent key must be in the environment (agent.yaml never holds it). */
export function checkServerKey(
  governance: GovernanceConfig,
  env: Readonly<Record<string, string | undefined>>,
): FieldIssue[] {
  if (governance.server === undefined || env[NOVARCH_API_KEY_VARIABLE]?.trim()) return [];
  return [
    {
      path: ['governance', 'server'],
      message: `the Novarch server needs this agent's key in ${NOVARCH_API_KEY_VARIABLE}, which is not set`,
      hint: `create one where the server's store is with \`novarch keys create --tenant ${governance.tenant_id} --name ${governance.agent_id}\`, then set ${NOVARCH_API_KEY_VARIABLE} in the environment, in .env next to agent.yaml or in ~/.holodeck/.env (never in agent.yaml)`,
    },
  ];
}

/** A write tool without a write spec cannot be judged; a write spec of another tool is never used. */
export function checkWriteSpecKeys(governance: GovernanceConfig): FieldIssue[] {
  const writeTools = Object.keys(governance.tool_kinds).filter(
    (name) => governance.tool_kinds[name] === 'write',
  );
  const issues: FieldIssue[] = writeTools
    .filter((name) => governance.write_specs[name] === undefined)
    .map((name) => ({
      path: ['governance', 'write_specs', name],
      message: `write tool "${name}" has no write spec`,
      hint: `add write_specs.${name}: ${SPEC_FIELDS}`,
    }));
  for (const name of Object.keys(governance.write_specs)) {
    const kind = governance.tool_kinds[name];
    if (kind === 'write') continue;
    const match = kind === undefined ? closestMatch(name, writeTools) : undefined;
    issues.push({
      path: ['governance', 'write_specs', name],
      anchor: 'key',
      message:
        kind === 'read'
          ? `write spec for "${name}", which tool_kinds lists as a read tool`
          : `write spec for "${name}", which is not in tool_kinds`,
      hint:
        match !== undefined
          ? `did you mean "${match}"? write_specs keys are tool names from tool_kinds`
          : `write specs are for write tools: set tool_kinds.${name}: write, or remove write_specs.${name}`,
    });
  }
  return issues;
}

/** Each write spec's action_type must be one the rules file declares in its action_types. */
function checkActionTypes(governance: GovernanceConfig, declared: readonly string[]): FieldIssue[] {
  const rulesFile = governance.rules_file ?? 'the rules file';
  const listed = declared.length ? declared.map((type) => `"${type}"`).join(', ') : 'no action types';
  return Object.entries(governance.write_specs)
    .filter(([, spec]) => !declared.includes(spec.action_type))
    .map(([name, spec]) => {
      const match = closestMatch(spec.action_type, declared);
      const suggestion = match === undefined ? '' : `did you mean "${match}"? `;
      return {
        path: ['governance', 'write_specs', name, 'action_type'],
        message: `action type "${spec.action_type}" is not declared in ${rulesFile}; Novarch would kill the session at the first ${name} call`,
        hint: `${suggestion}${rulesFile} declares ${listed}; use one of them, or add "${spec.action_type}" to its action_types`,
      };
    });
}
