import { z } from 'zod';
import { addConfigIssue } from './add-config-issue.js';
import { HttpUrlSchema } from './llm-provider-schema.js';
import { HierarchicalDocumentToolSchema, VectorstoreToolSchema } from './retrieval-tool-schema.js';
import { toolDescription, toolName } from './tool-name-schema.js';

export { TOOL_NAME_PATTERN } from './tool-name-schema.js';

const STDIO_ONLY = ['command', 'args', 'env', 'cwd'] as const;
const HTTP_ONLY = ['url', 'headers'] as const;

/** An MCP server. stdio servers are spawned (`command`); http/sse servers are reached at `url`. */
export const McpToolSchema = z
  .strictObject({
    type: z.literal('mcp').describe('An MCP server.'),
    name: toolName,
    description: toolDescription,
    transport: z
      .enum(['stdio', 'http', 'sse'])
      .default('stdio')
      .describe('stdio: start command; http (streamable HTTP) or sse: reach url.'),
    command: z
      .string()
      .min(1)
      .optional()
      .describe('stdio: program to start; ./ or ../ is relative to agent.yaml.'),
    args: z.array(z.string()).optional().describe('stdio: arguments of command.'),
    env: z
      .record(z.string(), z.string())
      .optional()
      .describe('stdio: environment of the server (model credentials are blanked unless set here).'),
    cwd: z.string().min(1).optional().describe('stdio: folder the server starts in, relative to agent.yaml.'),
    url: HttpUrlSchema.optional().describe('http/sse: server URL.'),
    headers: z.record(z.string(), z.string()).optional().describe('http/sse: headers of every request.'),
    request_timeout: z.number().positive().default(60).describe('Seconds.'),
    approval: z
      .enum(['never', 'always'])
      .optional()
      .describe(
        "openai/azure_openai/ollama chats: always asks before each call of this server's tools, never runs them unasked (default: always, unless governance.tool_kinds calls a tool read).",
      ),
  })
  .superRefine((tool, context) => {
    const stdio = tool.transport === 'stdio';
    if (stdio && tool.command === undefined) {
      addConfigIssue(
        context,
        ['command'],
        'missing required key "command" for transport stdio',
        'add command: <program that starts the MCP server>, or set transport: http with a url',
      );
    }
    if (!stdio && tool.url === undefined) {
      addConfigIssue(
        context,
        ['url'],
        `missing required key "url" for transport ${tool.transport}`,
        'add url: https://<host>/mcp',
      );
    }
    const misplaced = stdio ? HTTP_ONLY : STDIO_ONLY;
    for (const key of misplaced) {
      if (tool[key] === undefined) continue;
      const fix = stdio
        ? 'remove it, or set transport: http (or sse) to reach a server by URL'
        : 'remove it: only stdio servers are started with command, args, env and cwd';
      addConfigIssue(context, [key], `"${key}" is not used with transport ${tool.transport}`, fix);
    }
  });
/** An MCP tool server. */
export type McpToolConfig = z.infer<typeof McpToolSchema>;

/** Whether a call of this tool asks first in a chat on the AI SDK backend. */
export const toolApprovalSetting = z
  .enum(['never', 'always'])
  .optional()
  .describe(
    'openai/azure_openai/ollama chats: always asks before each call, never runs it unasked. Default: lookups (retrieval tools, governance.tool_kinds read) never, other tools always. A piped chat refuses calls that ask.',
  );

/** `holodeck test --replay`: serve this tool's recorded results instead of running it. */
export const replayTools = z
  .boolean()
  .optional()
  .describe(
    'In `holodeck test --replay`: answer each call with the result recorded for it instead of running the tool (for tools that call paid or mutable services).',
  );

/** A tool implemented by an exported function of a local module. */
export const FunctionToolSchema = z.strictObject({
  type: z.literal('function').describe('A function exported by a local module, called in-process.'),
  name: toolName,
  description: toolDescription,
  file: z
    .string()
    .regex(/\.(js|mjs|ts)$/, { error: 'must be a .js, .mjs or .ts module' })
    .describe('Module path, relative to agent.yaml.'),
  function: z.string().min(1).optional().describe('Export name; defaults to the tool name.'),
  parameters: z
    .looseObject({ type: z.literal('object').describe('Always object: the arguments are named.') })
    .describe('JSON Schema of the arguments (type: object).'),
  timeout: z.number().positive().optional().describe('Seconds.'),
  replay_tools: replayTools,
  approval: toolApprovalSetting,
});
/** A function tool. */
export type FunctionToolConfig = z.infer<typeof FunctionToolSchema>;

export {
  type HierarchicalDocumentToolConfig,
  HierarchicalDocumentToolSchema,
  type VectorstoreToolConfig,
  VectorstoreToolSchema,
} from './retrieval-tool-schema.js';

/** One entry of `tools:`, told apart by `type`. */
export const ToolConfigSchema = z.discriminatedUnion('type', [
  McpToolSchema,
  FunctionToolSchema,
  VectorstoreToolSchema,
  HierarchicalDocumentToolSchema,
]);
/** Any tool configuration. */
export type ToolConfig = z.infer<typeof ToolConfigSchema>;
