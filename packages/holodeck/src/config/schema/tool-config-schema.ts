import { z } from 'zod';
import { addConfigIssue } from './add-config-issue.js';
import { HttpUrlSchema } from './llm-provider-schema.js';

/** Tool names become parts of MCP tool ids (`mcp__<server>__<name>`), hence the tight pattern. */
export const TOOL_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

const toolName = z.string().regex(TOOL_NAME_PATTERN, {
  error: 'must start with a letter and have at most 64 letters, digits, "_" or "-"',
});
const toolDescription = z.string().min(1).describe('What the tool does; the model reads it.');

const STDIO_ONLY = ['command', 'args', 'env', 'cwd'] as const;
const HTTP_ONLY = ['url', 'headers'] as const;

/** An MCP server. stdio servers are spawned (`command`); http/sse servers are reached at `url`. */
export const McpToolSchema = z
  .strictObject({
    type: z.literal('mcp'),
    name: toolName,
    description: toolDescription,
    transport: z.enum(['stdio', 'http', 'sse']).default('stdio'),
    command: z
      .string()
      .min(1)
      .optional()
      .describe('stdio: program to start; ./ or ../ is relative to agent.yaml.'),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().min(1).optional(),
    url: HttpUrlSchema.optional().describe('http/sse: server URL.'),
    headers: z.record(z.string(), z.string()).optional(),
    request_timeout: z.number().positive().default(60).describe('Seconds.'),
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

/** A tool implemented by an exported function of a local module. */
export const FunctionToolSchema = z.strictObject({
  type: z.literal('function'),
  name: toolName,
  description: toolDescription,
  file: z
    .string()
    .regex(/\.(js|mjs|ts)$/, { error: 'must be a .js, .mjs or .ts module' })
    .describe('Module path, relative to agent.yaml.'),
  function: z.string().min(1).optional().describe('Export name; defaults to the tool name.'),
  parameters: z
    .looseObject({ type: z.literal('object') })
    .describe('JSON Schema of the arguments (type: object).'),
  timeout: z.number().positive().optional().describe('Seconds.'),
});
/** A function tool. */
export type FunctionToolConfig = z.infer<typeof FunctionToolSchema>;

/** Semantic search over documents (schema only for now; implemented by the tools issue). */
export const VectorstoreToolSchema = z.strictObject({
  type: z.literal('vectorstore'),
  name: toolName,
  description: toolDescription,
  source: z.string().min(1).describe('File or folder, relative to agent.yaml.'),
  embedding_model: z.string().min(1).optional(),
  top_k: z.int().positive().default(5),
  min_similarity_score: z.number().min(0).max(1).optional(),
  chunk_size: z.int().positive().optional(),
  chunk_overlap: z.int().nonnegative().optional(),
  database: z.record(z.string(), z.unknown()).optional(),
});
/** A vectorstore tool. */
export type VectorstoreToolConfig = z.infer<typeof VectorstoreToolSchema>;

/** Structure-aware document search (schema only for now). */
export const HierarchicalDocumentToolSchema = z.strictObject({
  type: z.literal('hierarchical_document'),
  name: toolName,
  description: toolDescription,
  source: z.string().min(1).describe('File or folder, relative to agent.yaml.'),
  top_k: z.int().positive().optional(),
  chunk_size: z.int().positive().optional(),
  search_mode: z.enum(['semantic', 'keyword', 'hybrid']).optional(),
});
/** A hierarchical document tool. */
export type HierarchicalDocumentToolConfig = z.infer<typeof HierarchicalDocumentToolSchema>;

/** One entry of `tools:`, told apart by `type`. */
export const ToolConfigSchema = z.discriminatedUnion('type', [
  McpToolSchema,
  FunctionToolSchema,
  VectorstoreToolSchema,
  HierarchicalDocumentToolSchema,
]);
/** Any tool configuration. */
export type ToolConfig = z.infer<typeof ToolConfigSchema>;
