import type { AgentConfig } from '../../config/index.js';

/** Whether a call of one tool asks its user first, and the agent.yaml setting that decides it. */
export interface ToolApproval {
  asks: boolean;
  /** Why, naming the setting: shown in the approval question and in a refusal. */
  reason: string;
  /** The setting that changes it (`tools[2].approval`). */
  setting: string;
}

/**
 * Which tool calls ask on the AI SDK backend (in a chat that asks; a piped chat refuses them): a
 * tool's own `approval: never | always` decides; otherwise its kind does. Retrieval tools
 * (vectorstore, hierarchical_document) and tools `governance.tool_kinds` calls `read` are lookups
 * and run unasked; every other tool (function tools and MCP tools, whose effects HoloDeck cannot
 * know) asks. `name` is the name the model sees (`mcp__server__tool` for an MCP server's tool).
 */
export function toolApproval(config: AgentConfig, name: string): ToolApproval {
  const tools = config.tools ?? [];
  const mcp = /^mcp__(.+?)__(.+)$/.exec(name);
  const index = mcp
    ? tools.findIndex((tool) => tool.type === 'mcp' && tool.name === mcp[1])
    : tools.findIndex((tool) => tool.type !== 'mcp' && tool.name === name);
  const tool = tools[index];
  const setting = index === -1 ? 'tools[].approval' : `tools[${index}].approval`;
  if (tool && 'approval' in tool && tool.approval !== undefined)
    return {
      asks: tool.approval === 'always',
      reason: `${setting}: ${tool.approval}`,
      setting,
    };
  if (tool && (tool.type === 'vectorstore' || tool.type === 'hierarchical_document'))
    return { asks: false, reason: `a ${tool.type} tool is a lookup`, setting };
  const kinds = config.governance?.tool_kinds ?? {};
  const kind = kinds[name] ?? (mcp ? kinds[mcp[2] ?? ''] : undefined);
  if (kind === 'read') return { asks: false, reason: `governance.tool_kinds calls it read`, setting };
  const what = mcp ? 'an MCP tool' : 'a function tool';
  return {
    asks: true,
    reason: `${kind === 'write' ? 'a write tool (governance.tool_kinds)' : what} asks by default; ${setting}: never runs it unasked`,
    setting,
  };
}
