import { type FieldIssue, isRecord } from 'yaml-diagnostics';

/**
 * Tool names and test case names must be unique. Reported at the second use, pointing back at the
 * first. Runs on raw data so the check happens even when other entries are invalid.
 */
export function findDuplicateNames(data: Record<string, unknown>): FieldIssue[] {
  return [
    ...duplicatesIn(data, 'tools', 'tool'),
    ...duplicatesIn(data, 'test_cases', 'test case'),
    ...reservedToolNames(data),
  ];
}

/**
 * Tool names HoloDeck uses itself: `holodeck_tools` is the MCP server that carries the function
 * tools; an MCP server of that name would be silently replaced by it.
 */
export const RESERVED_TOOL_NAMES = new Set(['holodeck_tools']);

function reservedToolNames(data: Record<string, unknown>): FieldIssue[] {
  const tools = Array.isArray(data.tools) ? data.tools : [];
  return tools.flatMap((tool: unknown, index): FieldIssue[] =>
    isRecord(tool) && typeof tool.name === 'string' && RESERVED_TOOL_NAMES.has(tool.name)
      ? [
          {
            path: ['tools', index, 'name'],
            message: `tool name "${tool.name}" is reserved: HoloDeck's function tools run in an MCP server of that name`,
            hint: 'rename this tool (its tools are then mcp__<new name>__<tool>)',
          },
        ]
      : [],
  );
}

function duplicatesIn(
  data: Record<string, unknown>,
  key: 'tools' | 'test_cases',
  noun: string,
): FieldIssue[] {
  const list = data[key];
  if (!Array.isArray(list)) return [];
  const firstIndex = new Map<string, number>();
  const issues: FieldIssue[] = [];
  list.forEach((entry: unknown, index) => {
    if (!isRecord(entry) || typeof entry.name !== 'string') return;
    const first = firstIndex.get(entry.name);
    if (first === undefined) {
      firstIndex.set(entry.name, index);
      return;
    }
    issues.push({
      path: [key, index, 'name'],
      message: `duplicate ${noun} name "${entry.name}"; ${key}[${first}] already uses it`,
      hint: `${noun} names must be unique: rename one of them`,
    });
  });
  return issues;
}
