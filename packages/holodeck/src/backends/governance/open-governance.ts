import {
  type ActiveSession,
  defaultNovarchConfig,
  type GovernanceEngine,
  loadNovarchConfig,
  loadRulesFile,
  ModelLlmJudge,
  NovarchConfigError,
  NovarchEngine,
  type NovarchStore,
  openSqliteStore,
  RulesError,
  remoteEngine,
  type ToolKind,
  type WriteSpec,
} from 'novarch';
import {
  checkServerKey,
  checkWriteSpecKeys,
  formatFieldPath,
  type LoadedAgent,
  NOVARCH_API_KEY_VARIABLE,
} from '../../config/index.js';
import { ConfigError } from '../../errors.js';
import type { GovernanceRefusal, GovernanceSummary, GovernanceVerdict } from '../../execution-result.js';
import { compileUserSchema } from '../../json-schema/create-ajv.js';
import { functionToolName } from '../../tool-name.js';
import { buildWriteSpec } from './build-write-spec.js';
import { HoldReporter } from './hold-reporter.js';

/**
 * The name team rules (`e.tool`, `action.tool`) and the audit know a function tool by:
 * `mcp__holodeck_tools__<name>`, as the Claude CLI calls it through HoloDeck's in-process MCP
 * server. The AI SDK backend uses the same name for them, so one rules file serves both backends.
 * Other tools (built-ins, `mcp__<server>__<tool>`) keep their names.
 */
export function governedToolName(agent: LoadedAgent, name: string): string {
  const isFunctionTool = (agent.config.tools ?? []).some(
    (tool) => tool.type === 'function' && tool.name === name,
  );
  return isFunctionTool ? functionToolName(name) : name;
}

/** Novarch wired for one agent, whatever backend runs it: engine, tool kinds, write specs. */
export interface AgentGovernance {
  /** Tool kinds and write specs keyed by `governedToolName`. */
  toolKinds: Record<string, ToolKind>;
  writeSpecs: Record<string, WriteSpec>;
  /** Opens one governed Novarch session (one run, or one chat). */
  openSession(): Promise<ActiveSession>;
  /** A reporter of one run's holds as session events (its commands name this store). */
  holdReporter(): HoldReporter;
  /** Every verdict of a session, from the store, as the contract reports them. */
  summarise(session: ActiveSession, killed: boolean): Promise<GovernanceSummary>;
  close(): Promise<void>;
}

/**
 * The input schema check of a function tool (its `parameters`, compiled once): what an operator's
 * edited input is checked against before it is judged again. Other tools have none here, so an
 * edit of them is refused (fail-closed).
 */
function inputValidatorOf(
  agent: LoadedAgent,
  name: string,
): ((args: Record<string, unknown>) => string | undefined) | undefined {
  const tool = (agent.config.tools ?? []).find(
    (candidate) => candidate.type === 'function' && candidate.name === name,
  );
  if (tool === undefined || tool.type !== 'function') return undefined;
  const validate = compileUserSchema(tool.parameters);
  return (args) =>
    validate(args)
      ? undefined
      : (validate.errors ?? [])
          .map((error) => `${error.instancePath || '(root)'} ${error.message}`)
          .join('; ');
}

function asConfigError(error: unknown): unknown {
  if (error instanceof RulesError || error instanceof NovarchConfigError)
    return new ConfigError(error.issues);
  return error;
}

/**
 * Builds the Novarch engine for an agent.yaml `governance:` block: deployment config, store,
 * team rules, optional LLM judge. Rules and config problems become ConfigErrors (exit 2).
 * Tool kinds and write specs are keyed by `governedToolName`.
 */
export async function openGovernance(agent: LoadedAgent): Promise<AgentGovernance | undefined> {
  const runtimeToolName = (name: string) => governedToolName(agent, name);
  const governance = agent.config.governance;
  if (!governance) return undefined;
  // loadAgentConfig already refuses these; an agent built by hand gets the same ConfigError.
  const specIssues = [...checkWriteSpecKeys(governance), ...checkServerKey(governance, agent.env)];
  if (specIssues.length) {
    throw new ConfigError(
      specIssues.map(({ path, message, hint }) => ({
        file: agent.file,
        path: formatFieldPath(path),
        message,
        ...(hint === undefined ? {} : { hint }),
      })),
    );
  }
  let store: NovarchStore | undefined;
  try {
    let engine: GovernanceEngine;
    // Where operators decide this agent's holds: the server, or the local store file.
    let storePath: string;
    if (governance.server !== undefined) {
      // The server judges with its own rules, hold window and judge, and stores every decision.
      engine = remoteEngine({ url: governance.server, apiKey: agent.env[NOVARCH_API_KEY_VARIABLE] ?? '' });
      storePath = governance.server;
    } else {
      const config = governance.config_file
        ? await loadNovarchConfig(governance.config_file)
        : defaultNovarchConfig();
      const rules = await loadRulesFile(governance.rules_file ?? '');
      // The store settings of the config's store: section (redaction patterns, maxStoredBytes).
      const { path: localPath, ...storeOptions } = config.store;
      storePath = localPath;
      store = await openSqliteStore(storePath, storeOptions);
      engine = new NovarchEngine({
        store,
        rules: [rules],
        holdWindowSeconds: config.holdWindowSeconds,
        ...(config.judge ? { llmJudge: new ModelLlmJudge({ ...config.judge, env: agent.env }) } : {}),
      });
    }
    const scope = {
      tenantId: governance.tenant_id,
      teamId: governance.team_id,
      agentId: governance.agent_id,
    };
    const maxHold = governance.max_hold_s === 'deployment' ? undefined : governance.max_hold_s;
    const openedStore = store;
    return {
      toolKinds: Object.fromEntries(
        Object.entries(governance.tool_kinds).map(([name, kind]) => [runtimeToolName(name), kind]),
      ),
      writeSpecs: Object.fromEntries(
        Object.entries(governance.write_specs).map(([name, spec]) => [
          runtimeToolName(name),
          buildWriteSpec(spec, inputValidatorOf(agent, name)),
        ]),
      ),
      openSession: async () => ({ engine, record: await engine.openSession(scope, maxHold) }),
      holdReporter: () => new HoldReporter(storePath),
      summarise: (session, killed) => summariseSession(session, killed),
      close: async () => openedStore?.close(),
    };
  } catch (error) {
    await store?.close();
    throw asConfigError(error);
  }
}

/**
 * The session's decisions as the contract reports them: `verdicts` are the judge's (with what an
 * operator made of a hold), one per judged write, whatever the gate noted on the action after
 * (e.g. that a kill stored before the release stopped it); `refusals` are the verdicts of sources
 * other than the judge (the gate's own refusals, calls the agent's permission rules refused).
 */
export async function summariseSession(session: ActiveSession, killed: boolean): Promise<GovernanceSummary> {
  const entries = await session.engine.store.audit({ sessionId: session.record.id });
  const verdicts: GovernanceVerdict[] = [];
  const refusals: GovernanceRefusal[] = [];
  for (const entry of entries) {
    const tool = entry.action.toolName;
    const actionType = entry.action.actionType;
    for (const record of entry.verdicts) {
      const { verdict } = record;
      if (record.source === 'judge') {
        verdicts.push({
          tool,
          action_type: actionType,
          verdict: verdict.kind,
          ...(entry.hold ? { hold_status: entry.hold.status } : {}),
          rule_ids: verdict.citations.ruleIds,
          rationale: verdict.citations.rationale,
        });
      } else {
        refusals.push({
          tool,
          action_type: actionType,
          source: record.source,
          rationale: verdict.citations.rationale,
        });
      }
    }
  }
  return { session_id: session.record.id, killed, verdicts, refusals };
}
