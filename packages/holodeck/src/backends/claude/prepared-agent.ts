import type { McpSdkServerConfigWithInstance, Options } from '@anthropic-ai/claude-agent-sdk';
import type { ValidateFunction } from 'ajv';
import type { SdkOptionsPlan } from './build-sdk-options.js';
import { buildToolGuard } from './build-tool-guard.js';
import type { ClaudeProcessHandle } from './spawn-claude-process.js';
import { FUNCTION_TOOLS_SERVER } from './tool-names.js';

/** Everything `initialize()` prepared once, from which each query's options are made. */
export interface PreparedAgent {
  plan: SdkOptionsPlan;
  /** A fresh in-process MCP server of the function tools (one per CLI process); undefined when there are none. */
  createFunctionToolsServer?: () => McpSdkServerConfigWithInstance;
  validateStructuredOutput?: ValidateFunction;
  credentialHint: string;
}

export interface QueryOptionsInput {
  handle: ClaudeProcessHandle;
  partialMessages: boolean;
  resume?: string;
  abortController?: AbortController;
  /** Overrides the configured working directory for this process. */
  workingDirectory?: string;
}

/** Options for one query: the plan plus the parts that hold per-process state. */
export function queryOptions(prepared: PreparedAgent, input: QueryOptionsInput): Options {
  const functionToolsServer = prepared.createFunctionToolsServer?.();
  return {
    ...prepared.plan.options,
    mcpServers: {
      ...prepared.plan.options.mcpServers,
      ...(functionToolsServer ? { [FUNCTION_TOOLS_SERVER]: functionToolsServer } : {}),
    },
    hooks: buildToolGuard(prepared.plan.guardPolicy),
    includePartialMessages: input.partialMessages,
    spawnClaudeCodeProcess: input.handle.spawn,
    ...(input.resume ? { resume: input.resume } : {}),
    ...(input.abortController ? { abortController: input.abortController } : {}),
    ...(input.workingDirectory ? { cwd: input.workingDirectory } : {}),
  };
}
