import { z } from 'zod';

/** Tool names become parts of MCP tool ids (`mcp__<server>__<name>`), hence the tight pattern. */
export const TOOL_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** The `name` of every tool type. */
export const toolName = z
  .string()
  .regex(TOOL_NAME_PATTERN, {
    error: 'must start with a letter and have at most 64 letters, digits, "_" or "-"',
  })
  .describe(
    'Unique tool name (for an MCP server, its tools are mcp__<name>__<tool>); holodeck_tools is reserved.',
  );

/** The `description` of every tool type. */
export const toolDescription = z.string().min(1).describe('What the tool does; the model reads it.');
