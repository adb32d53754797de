function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One content block as text: text as is, anything else (image, audio, resource) named by its type. */
function blockText(block: unknown): string {
  if (!isRecord(block)) return '';
  if (block.type === 'text' && typeof block.text === 'string') return block.text;
  if (block.type === 'resource' && isRecord(block.resource) && typeof block.resource.text === 'string')
    return block.resource.text;
  return `[${String(block.type)}]`;
}

/**
 * Flattens an MCP `tools/call` result to the text the model reads: the content blocks joined by
 * newlines, else the structured content as JSON (or a legacy `toolResult`).
 */
export function mcpResultText(result: Record<string, unknown>): string {
  const content = result.content;
  if (Array.isArray(content) && content.length > 0) return content.map(blockText).join('\n');
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  if (result.toolResult !== undefined) return JSON.stringify(result.toolResult);
  return '';
}
