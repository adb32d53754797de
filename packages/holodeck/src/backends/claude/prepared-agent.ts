import type {
  CanUseTool,
  HookCallbackMatcher,
  HookEvent,
  McpSdkServerConfigWithInstance,
  OnElicitation,
  Options,
} from '@anthropic-ai/claude-agent-sdk';
import type { ValidateFunction } from 'ajv';
import type { ToolKind } from '../../execution-result.js';
import type { RunTraffic } from '../../tools/run-traffic.js';
import type { ModelRoute } from '../contract/index.js';
import type { TokenPrices } from '../pricing/token-prices.js';
import type { SdkOptionsPlan } from './build-sdk-options.js';
import { buildToolGuard } from './build-tool-guard.js';
import type { McpServerPlace } from './describe-mcp-failure.js';
import type { GovernanceRuntime } from './governance/prepare-governance.js';
import type { LimitToolGate } from './limit-tool-gate.js';
import type { ClaudeProcessHandle } from './spawn-claude-process.js';
import { FUNCTION_TOOLS_SERVER } from './tool-names.js';

/** Everything `initialize()` prepared once, from which each query's options are made. */
export interface PreparedAgent {
  plan: SdkOptionsPlan;
  /**
   * A fresh in-process MCP server of the function tools (one per CLI process), its calls bound to
   * the process's recording route when there is one; undefined when there are none.
   */
  createFunctionToolsServer?: (route?: ModelRoute) => McpSdkServerConfigWithInstance;
  validateStructuredOutput?: ValidateFunction;
  credentialHint: string;
  /** The kind of a tool the CLI calls, by its runtime name (from agent.yaml). */
  toolKindOf: (runtimeName: string) => ToolKind;
  /** agent.yaml's MCP servers by name, so a server that did not start is named with its entry and cause. */
  mcpServers: ReadonlyMap<string, McpServerPlace>;
  /** `pricing:` in agent.yaml, which replaces the CLI's own cost figure. */
  prices?: TokenPrices;
  /** Novarch governance of tool calls, when agent.yaml has a `governance:` block. */
  governance?: GovernanceRuntime;
  /** The route of a CLI process started now, when model traffic is recorded (BackendOptions.modelTraffic). */
  routeFor?: (upstream: string) => ModelRoute;
}

/** Where the CLI sends its requests unless ANTHROPIC_BASE_URL says otherwise. */
const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

export interface QueryOptionsInput {
  handle: ClaudeProcessHandle;
  partialMessages: boolean;
  resume?: string;
  abortController?: AbortController;
  /** Overrides the configured working directory for this process. */
  workingDirectory?: string;
  /** Hooks of a governed run (Novarch), added after HoloDeck's own tool guard. */
  extraHooks?: Partial<Record<HookEvent, HookCallbackMatcher[]>>;
  /** Holds tool calls until the run's limits were checked against their response (limit-tool-gate.ts). */
  toolGate?: LimitToolGate;
  /** Answers the CLI's permission prompts instead of the plan's (a chat that asks its user). */
  canUseTool?: CanUseTool;
  /** Answers MCP servers' elicitation requests instead of the plan's declining one (a session). */
  onElicitation?: OnElicitation;
  /**
   * A session that marks each of its messages itself (`client_composed`) and sends its own `/clear`
   * as a command. Otherwise every prompt is delivered verbatim (`verbatimPrompts`).
   */
  composesMessages?: boolean;
  /**
   * A pre-warmed spare, started before the run that will use it is known: its recording route
   * (recorded runs) is handed here, for that run to claim, instead of being claimed now.
   */
  deferRouteClaim?: (claim: (run: RunTraffic | undefined) => void) => void;
  /** The recorded run this process is started for (claims its route at once). */
  traffic?: RunTraffic;
}

/** Recorded runs: the process's recording route, claimed now or handed on (a spare). */
function recordingRoute(prepared: PreparedAgent, input: QueryOptionsInput): ModelRoute | undefined {
  const { env } = prepared.plan.options;
  if (!prepared.routeFor || !env) return undefined;
  const route = prepared.routeFor(env.ANTHROPIC_BASE_URL ?? DEFAULT_ANTHROPIC_BASE_URL);
  if (input.deferRouteClaim) input.deferRouteClaim(route.claim);
  else route.claim(input.traffic);
  return route;
}

type Hooks = Partial<Record<HookEvent, HookCallbackMatcher[]>>;

/** Both sets of matchers run for every event; any deny wins. */
function mergeHooks(first: Hooks, second: Hooks | undefined): Hooks {
  if (!second) return first;
  const merged: Hooks = { ...first };
  for (const [event, matchers] of Object.entries(second) as [HookEvent, HookCallbackMatcher[]][]) {
    merged[event] = [...(merged[event] ?? []), ...matchers];
  }
  return merged;
}

/** Options for one query: the plan plus the parts that hold per-process state. */
export function queryOptions(prepared: PreparedAgent, input: QueryOptionsInput): Options {
  const route = recordingRoute(prepared, input);
  const functionToolsServer = prepared.createFunctionToolsServer?.(route);
  const { env } = prepared.plan.options;
  return {
    ...prepared.plan.options,
    // Recorded runs: this process reaches the model through HoloDeck's loopback recorder.
    ...(route && env ? { env: { ...env, ANTHROPIC_BASE_URL: route.baseUrl } } : {}),
    mcpServers: {
      ...prepared.plan.options.mcpServers,
      ...(functionToolsServer ? { [FUNCTION_TOOLS_SERVER]: functionToolsServer } : {}),
    },
    hooks: mergeHooks(
      mergeHooks(buildToolGuard(prepared.plan.guardPolicy), input.toolGate?.hooks),
      input.extraHooks,
    ),
    includePartialMessages: input.partialMessages,
    spawnClaudeCodeProcess: input.handle.spawn,
    ...(input.resume ? { resume: input.resume } : {}),
    ...(input.abortController ? { abortController: input.abortController } : {}),
    ...(input.workingDirectory ? { cwd: input.workingDirectory } : {}),
    ...(input.canUseTool && prepared.plan.options.canUseTool ? { canUseTool: input.canUseTool } : {}),
    ...(input.onElicitation ? { onElicitation: input.onElicitation } : {}),
    // The CLI would expand `@path` mentions in a prompt by reading the file itself (no tool call,
    // no hook, whatever file_system allows) and run a leading `/command`: a prompt is data.
    ...(input.composesMessages ? {} : { verbatimPrompts: true }),
  };
}
