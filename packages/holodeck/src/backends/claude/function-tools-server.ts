import type { McpSdkServerConfigWithInstance } from '@anthropic-ai/claude-agent-sdk';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ValidateFunction } from 'ajv';
import type { FunctionToolConfig } from '../../config/index.js';
import { ConfigError } from '../../errors.js';
import { importUserModule } from '../../import-module.js';
import { compileUserSchema } from '../../json-schema/create-ajv.js';
import { FUNCTION_TOOLS_SERVER } from './tool-names.js';

/** A function tool loaded and ready to call. */
export interface LoadedFunctionTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  timeoutMs: number;
  validate: ValidateFunction;
  implementation: (args: Record<string, unknown>) => unknown;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** Imports each function tool's module and checks the named export is a function. */
export async function loadFunctionTools(
  agentFile: string,
  tools: readonly { index: number; config: FunctionToolConfig }[],
): Promise<LoadedFunctionTool[]> {
  const loaded: LoadedFunctionTool[] = [];
  const issues = [];
  for (const { index, config } of tools) {
    const exportName = config.function ?? config.name;
    let module: Record<string, unknown>;
    try {
      module = await importUserModule(config.file);
    } catch (error) {
      issues.push({
        file: agentFile,
        path: `tools[${index}].file`,
        message: `cannot load function tool module ${config.file}: ${error instanceof Error ? error.message : String(error)}`,
        hint: 'check the module runs on its own, e.g. `node <file>`',
      });
      continue;
    }
    const implementation = module[exportName];
    if (typeof implementation !== 'function') {
      const exports = Object.keys(module).filter((key) => typeof module[key] === 'function');
      issues.push({
        file: agentFile,
        path: `tools[${index}].function`,
        message: `module ${config.file} has no exported function "${exportName}"`,
        hint: exports.length
          ? `exported functions: ${exports.join(', ')}`
          : 'the module exports no functions',
      });
      continue;
    }
    loaded.push({
      name: config.name,
      description: config.description,
      parameters: config.parameters,
      timeoutMs: config.timeout !== undefined ? config.timeout * 1000 : DEFAULT_TIMEOUT_MS,
      validate: compileUserSchema(config.parameters),
      implementation: implementation as (args: Record<string, unknown>) => unknown,
    });
  }
  if (issues.length) throw new ConfigError(issues);
  return loaded;
}

function textResult(text: string, isError: boolean): CallToolResult {
  return { content: [{ type: 'text', text }], isError };
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

async function callWithTimeout(
  tool: LoadedFunctionTool,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CallToolResult>((resolve) => {
    timer = setTimeout(
      () => resolve(textResult(`Tool "${tool.name}" timed out after ${tool.timeoutMs / 1000} s`, true)),
      tool.timeoutMs,
    );
  });
  const run = (async () => {
    try {
      return textResult(stringify(await tool.implementation(args)), false);
    } catch (error) {
      return textResult(
        `Tool "${tool.name}" failed: ${error instanceof Error ? error.message : String(error)}`,
        true,
      );
    }
  })();
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * An in-process MCP server exposing the function tools with their JSON Schemas exactly as
 * written in agent.yaml (the SDK's `tool()` helper takes zod shapes, which would lose
 * schema detail). Arguments are validated with ajv before the function runs; validation
 * failures, thrown errors and timeouts come back to the model as error tool results.
 * A server instance serves one CLI process, so callers create one per query.
 */
export function createFunctionToolsServer(
  tools: readonly LoadedFunctionTool[],
): McpSdkServerConfigWithInstance {
  const server = new McpServer(
    { name: FUNCTION_TOOLS_SERVER, version: '0.1.0' },
    { capabilities: { tools: {} } },
  );
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  server.server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.parameters,
    })),
  }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) return textResult(`Unknown tool "${request.params.name}"`, true);
    const args = request.params.arguments ?? {};
    if (!tool.validate(args)) {
      const problems = (tool.validate.errors ?? [])
        .map((e) => `${e.instancePath || '(root)'} ${e.message}`)
        .join('; ');
      return textResult(`Invalid arguments for "${tool.name}": ${problems}`, true);
    }
    return callWithTimeout(tool, args);
  });
  return { type: 'sdk', name: FUNCTION_TOOLS_SERVER, instance: server };
}
