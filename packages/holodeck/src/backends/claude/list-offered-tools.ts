import { type McpServerStatus, query, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { AgentSessionError } from '../../errors.js';
import { functionToolName } from '../../tool-name.js';
import { AsyncQueue } from '../async-queue.js';
import type { OfferedTool } from '../contract/index.js';
import { describeMcpFailures } from './describe-mcp-failure.js';
import { type PreparedAgent, queryOptions } from './prepared-agent.js';
import { ClaudeProcessHandle, describeExit } from './spawn-claude-process.js';
import { FUNCTION_TOOLS_SERVER } from './tool-names.js';

/** How long MCP servers may stay `pending` (still connecting) before listing gives up. */
const CONNECT_TIMEOUT_MS = 60_000;
const POLL_MS = 100;

/** Statuses of a server that will not come back by itself (as the run treats them). */
const FAILED = new Set<McpServerStatus['status']>(['failed', 'needs-auth']);

/**
 * The tools a CLI process of this agent offers the model: its built-ins, the function tools, and
 * the tools each agent.yaml MCP server lists once connected. Starts one CLI process (no model
 * request: nothing is sent to it), asks it for its MCP servers' status until none is still
 * connecting, and stops it.
 */
export async function listOfferedTools(prepared: PreparedAgent): Promise<OfferedTool[]> {
  const handle = new ClaudeProcessHandle();
  const input = new AsyncQueue<SDKUserMessage>();
  const run = query({ prompt: input, options: queryOptions(prepared, { handle, partialMessages: false }) });
  try {
    let statuses: McpServerStatus[];
    try {
      await run.initializationResult();
      statuses = await run.mcpServerStatus();
      const deadline = Date.now() + CONNECT_TIMEOUT_MS;
      while (statuses.some((server) => server.status === 'pending') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        statuses = await run.mcpServerStatus();
      }
    } catch (error) {
      const detail = error instanceof Error && !handle.exited ? ` (${error.message})` : '';
      throw new AgentSessionError(`cannot list the agent's tools: ${describeExit(handle)}${detail}`, {
        cause: error,
      });
    }
    const servers = statuses.filter((server) => server.name !== FUNCTION_TOOLS_SERVER);
    const broken = servers.filter((server) => FAILED.has(server.status) || server.status === 'pending');
    if (broken.length) {
      throw new AgentSessionError(
        describeMcpFailures(
          broken.map((server) => ({
            name: server.name,
            status: server.error ? `${server.status}: ${server.error}` : server.status,
          })),
          prepared.mcpServers,
          'its tools cannot be listed',
        ),
      );
    }
    const builtins = Array.isArray(prepared.plan.options.tools) ? prepared.plan.options.tools : [];
    return [
      ...builtins.map((name) => ({ name })),
      ...prepared.plan.functionToolNames.map((name) => ({ name: functionToolName(name) })),
      ...servers.flatMap((server) =>
        (server.tools ?? []).map((tool) => ({
          name: `mcp__${server.name}__${tool.name}`,
          mcp: { server: server.name, tool: tool.name },
        })),
      ),
    ];
  } finally {
    input.end();
    run.close();
    await handle.stop();
  }
}
