import type { HookCallbackMatcher, HookEvent, SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import {
  AnthropicLlmJudge,
  defaultNovarchConfig,
  loadNovarchConfig,
  loadRulesFile,
  NovarchConfigError,
  NovarchEngine,
  NovarchHookGate,
  type NovarchStore,
  openSqliteStore,
  RulesError,
  type ToolKind,
} from 'novarch';
import { checkWriteSpecKeys, formatFieldPath, type LoadedAgent } from '../../../config/index.js';
import { ConfigError } from '../../../errors.js';
import type { GovernanceSummary } from '../../contract/index.js';
import { FUNCTION_TOOLS_SERVER } from '../tool-names.js';
import { buildWriteSpec } from './build-write-spec.js';

/** One governed run: its hooks, and whether the session was killed when it ended. */
export interface GovernedRun {
  hooks: Partial<Record<HookEvent, HookCallbackMatcher[]>>;
  /** Every message of the run, so the gate completes evidence the hooks missed. */
  observe(message: SDKMessage): void;
  /** The reason, when Novarch killed the session (judge kill, hold timeout/skip, operator kill). */
  killReason(): string | undefined;
  /** Every verdict of this run's session, from the store. */
  summary(): Promise<GovernanceSummary>;
}

/** Novarch wired for one agent: opens a governed session per run. */
export interface GovernanceRuntime {
  openRun(): Promise<GovernedRun>;
  close(): Promise<void>;
}

/** Function tools are named by their short name in agent.yaml; the runtime calls them mcp__holodeck_tools__<name>. */
function runtimeToolName(agent: LoadedAgent, name: string): string {
  const isFunctionTool = (agent.config.tools ?? []).some(
    (tool) => tool.type === 'function' && tool.name === name,
  );
  return isFunctionTool ? `mcp__${FUNCTION_TOOLS_SERVER}__${name}` : name;
}

function asConfigError(error: unknown): unknown {
  if (error instanceof RulesError || error instanceof NovarchConfigError)
    return new ConfigError(error.issues);
  return error;
}

/**
 * Builds the Novarch engine for an agent.yaml `governance:` block: deployment config, store,
 * team rules, optional LLM judge. Rules and config problems become ConfigErrors (exit 2).
 */
export async function prepareGovernance(agent: LoadedAgent): Promise<GovernanceRuntime | undefined> {
  const governance = agent.config.governance;
  if (!governance) return undefined;
  let store: NovarchStore | undefined;
  try {
    const config = governance.config_file
      ? await loadNovarchConfig(governance.config_file)
      : defaultNovarchConfig();
    const rules = await loadRulesFile(governance.rules_file);
    store = await openSqliteStore(config.store.path);
    const engine = new NovarchEngine({
      store,
      rules: [rules],
      holdWindowSeconds: config.holdWindowSeconds,
      ...(config.judge ? { llmJudge: new AnthropicLlmJudge({ ...config.judge, env: agent.env }) } : {}),
    });
    const toolKinds: Record<string, ToolKind> = Object.fromEntries(
      Object.entries(governance.tool_kinds).map(([name, kind]) => [runtimeToolName(agent, name), kind]),
    );
    const writeSpecs = Object.fromEntries(
      Object.entries(governance.write_specs).map(([name, spec]) => [
        runtimeToolName(agent, name),
        buildWriteSpec(spec),
      ]),
    );
    // loadAgentConfig already refuses these; an agent built by hand gets the same ConfigError.
    const specIssues = checkWriteSpecKeys(governance);
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
    const scope = {
      tenantId: governance.tenant_id,
      teamId: governance.team_id,
      agentId: governance.agent_id,
    };
    const openedStore = store;
    return {
      async openRun() {
        const maxHold = governance.max_hold_s === 'deployment' ? undefined : governance.max_hold_s;
        const record = await engine.openSession(scope, maxHold);
        const gate = await new NovarchHookGate({ toolKinds, writeSpecs, session: { engine, record } }).open();
        return {
          hooks: gate.hooksConfig(),
          observe: (message) => gate.observe(message),
          async summary() {
            const entries = await engine.store.audit({ sessionId: record.id });
            return {
              session_id: record.id,
              killed: gate.killed,
              verdicts: entries.flatMap((entry) =>
                entry.verdict
                  ? [
                      {
                        tool: entry.action.toolName,
                        action_type: entry.action.actionType,
                        verdict: entry.verdict.verdict.kind,
                        ...(entry.hold ? { hold_status: entry.hold.status } : {}),
                        rule_ids: entry.verdict.verdict.citations.ruleIds,
                        rationale: entry.verdict.verdict.citations.rationale,
                      },
                    ]
                  : [],
              ),
            };
          },
          killReason() {
            try {
              gate.raiseIfKilled();
              return undefined;
            } catch (error) {
              return error instanceof Error ? error.message : String(error);
            }
          },
        };
      },
      close: () => openedStore.close(),
    };
  } catch (error) {
    await store?.close();
    throw asConfigError(error);
  }
}
