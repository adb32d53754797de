import type { FieldIssue, FieldWarning } from '../../config/field-issue.js';
import type { AgentConfig, LoadedAgent } from '../../config/index.js';
import type { BackendWarning } from './session-event.js';

/** A problem one backend's startup rules found, with a stable code; located in agent.yaml by its path. */
export interface BackendIssue extends FieldIssue {
  /** Stable identifier, e.g. `accept-all-unacknowledged`; tests and tools match on it. */
  code: string;
}

/** What a backend's startup rules found: issues stop the agent, warnings let it run. */
export interface BackendChecks {
  issues: BackendIssue[];
  warnings: FieldWarning[];
}

/** The tools an agent offers, as test expectations (`expected_tools`, `forbidden_tools`) may name them. */
export interface AgentToolNames {
  /** Exact names: built-ins, function tools by their short name and any runtime spelling of it. */
  names: ReadonlySet<string>;
  /** MCP servers, whose tool names (`mcp__<server>__<tool>`) are only known once the server runs. */
  mcpServers: readonly string[];
}

/** How a test run keeps each case from seeing another's state. */
export type IsolationLevel = 'process' | 'session';

/** What the agent can change outside the conversation, and the agent with those capabilities off. */
export interface SideEffectProfile {
  /** The settings that enable side effects, as agent.yaml paths (e.g. `claude.bash`); empty when none. */
  capabilities: readonly string[];
  /** The same agent with every capability above turned off. */
  withoutSideEffects(): LoadedAgent;
  /** The folder the agent works in, which a per-case copy replaces. */
  workingDirectory: string;
}

/**
 * What runner, chat, cli and validate need to know about a backend before (or without) running
 * it. Static: nothing here starts a process or sends a request. `select-backend.ts` hands out the
 * profile of an agent's provider; each backend folder owns its implementation.
 */
export interface BackendProfile {
  /** Short name of the backend for messages, e.g. `claude` or `ai-sdk`. */
  readonly name: string;
  /**
   * Whether runs start agent processes (the Claude CLI) that `BackendOptions.maxProcesses` bounds
   * and `prewarm` starts ahead; unset: they run in-process.
   */
  readonly agentProcesses?: boolean;
  /**
   * Why the runs of this agent have no known cost (`ExecutionResult.cost_usd` null: a local model,
   * a model without a price), or undefined when they have one. `--max-cost` and the cost metric
   * need a known cost.
   */
  unknownCostReason(config: AgentConfig): string | undefined;
  /** The isolation levels `holodeck test --isolation` may choose on this backend. */
  readonly isolationLevels: readonly IsolationLevel[];
  /** This backend's startup rules over a schema-valid config (paths already absolute). */
  checkConfig(config: AgentConfig): Promise<BackendChecks>;
  /** Credentials a run would need but `agent.env` lacks, as warnings (validation often runs without secrets). */
  credentialWarnings(agent: LoadedAgent): BackendWarning[];
  toolNames(config: AgentConfig): AgentToolNames;
  sideEffects(agent: LoadedAgent): SideEffectProfile;
}
