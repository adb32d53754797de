import type { McpSdkServerConfigWithInstance } from '@anthropic-ai/claude-agent-sdk';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { holodeckVersion } from '../../holodeck-version.js';
import type { HoloDeckTool } from '../../tools/index.js';
import { FUNCTION_TOOLS_SERVER } from './tool-names.js';

function textResult(text: string, isError: boolean): CallToolResult {
  return { content: [{ type: 'text', text }], isError };
}

/**
 * An in-process MCP server exposing HoloDeck's tools (src/tools/) with their JSON Schemas exactly
 * as written in agent.yaml (the SDK's `tool()` helper takes zod shapes, which would lose schema
 * detail). Validation, timeouts and errors are the tools' own; the request's AbortSignal (the CLI
 * cancelling the call, or the query ending) reaches the tool. A server instance serves one CLI
 * process, so callers create one per query.
 */
export function createFunctionToolsServer(tools: readonly HoloDeckTool[]): McpSdkServerConfigWithInstance {
  const server = new McpServer(
    { name: FUNCTION_TOOLS_SERVER, version: holodeckVersion() },
    { capabilities: { tools: {} } },
  );
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  server.server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
    })),
  }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) return textResult(`Unknown tool "${request.params.name}"`, true);
    const output = await tool.execute(request.params.arguments ?? {}, { signal: extra.signal });
    return textResult(output.text, output.isError);
  });
  return { type: 'sdk', name: FUNCTION_TOOLS_SERVER, instance: server };
}
