// How tool calls read on the case page: names as the agent.yaml spells them, results as
// readable JSON, refusals without the SDK's hook plumbing.

const FUNCTION_TOOL_PREFIX = 'mcp__holodeck_tools__';

/**
 * `mcp__holodeck_tools__lookup_order` → `lookup_order` (a function tool, as agent.yaml names it);
 * `mcp__everything__echo` → `everything › echo` (an MCP server's tool); built-ins as they are.
 */
export function toolDisplayName(name: string): string {
  if (name.startsWith(FUNCTION_TOOL_PREFIX)) return name.slice(FUNCTION_TOOL_PREFIX.length);
  const mcp = /^mcp__(.+?)__(.+)$/.exec(name);
  return mcp ? `${mcp[1]} › ${mcp[2]}` : name;
}

/** A result that is JSON, indented like the arguments; any other text as it is. */
export function prettyResult(text: string): string {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return text;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return text;
  }
}

/** An error result, read: who refused it, why, and the rules it cites. */
export interface ToolRefusal {
  /** `Novarch`, `HoloDeck` (a permission rule), or undefined for a tool's own error. */
  by?: string;
  reason: string;
  rules: string[];
}

/**
 * The Claude CLI wraps a hook's refusal as `PreToolUse:<tool> hook error: <reason>`, and Novarch
 * prefixes its reasons with `Novarch: `: shown as the refusal and its rules, without the plumbing.
 */
export function readToolError(text: string): ToolRefusal {
  let reason = text.trim();
  let by: string | undefined;
  const hook = /^PreToolUse:\S+ hook error: (?:\[[^\]]*\]:\s*)?/.exec(reason);
  if (hook) {
    reason = reason.slice(hook[0].length);
    by = 'HoloDeck';
  }
  if (reason.startsWith('Novarch: ')) {
    reason = reason.slice('Novarch: '.length);
    by = 'Novarch';
  }
  const rules: string[] = [];
  reason = reason.replace(/\s*\[rules?: ([^\]]+)\]\s*$/, (_whole, list: string) => {
    rules.push(...list.split(/,\s*/).filter(Boolean));
    return '';
  });
  return { ...(by ? { by } : {}), reason, rules };
}
