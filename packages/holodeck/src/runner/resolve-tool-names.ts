import type { AgentBackend, OfferedTool } from '../backends/contract/index.js';
import { formatFieldPath } from '../config/index.js';
import { ConfigError, type ConfigIssue } from '../errors.js';
import type { DeferredToolName, PreparedSuite } from './prepare-suite.js';

function issueFor(entry: DeferredToolName, message: string, hint: string): ConfigIssue {
  const fieldPath = [...entry.source.path, ...entry.field];
  const position = entry.source.locate?.(fieldPath);
  return {
    file: entry.source.file,
    ...(position ? { line: position.line, column: position.column } : {}),
    path: formatFieldPath(fieldPath),
    message,
    hint,
  };
}

/**
 * Resolves the expectation names only the started agent can tell apart: a short name (`echo`) is
 * the one MCP tool of that name, and becomes its runtime name (`mcp__everything__echo`) for the
 * tool metrics. A name no offered tool has is an error listing the real ones; a name two servers
 * share is an error naming both. Asks the backend only when there is something to resolve.
 */
export async function resolveToolNames(suite: PreparedSuite, backend: AgentBackend): Promise<void> {
  if (!suite.deferredToolNames.length) return;
  const offered: OfferedTool[] = await backend.listTools();
  const runtimeNames = new Set(offered.map((tool) => tool.name));
  const issues: ConfigIssue[] = [];
  for (const entry of suite.deferredToolNames) {
    if (runtimeNames.has(entry.name)) continue;
    const matches = offered.filter((tool) => tool.mcp?.tool === entry.name);
    const [only] = matches;
    if (only && matches.length === 1) {
      suite.toolNames.set(entry.name, only.name);
      continue;
    }
    if (matches.length > 1) {
      const servers = matches.map((tool) => `"${tool.mcp?.server}"`).join(' and ');
      issues.push(
        issueFor(
          entry,
          `test case "${entry.caseName}" names tool "${entry.name}", which MCP servers ${servers} both have`,
          `write the full name: ${matches.map((tool) => tool.name).join(' or ')}`,
        ),
      );
      continue;
    }
    const listed = offered.map((tool) => tool.name);
    issues.push(
      issueFor(
        entry,
        `test case "${entry.caseName}" expects unknown tool "${entry.name}"`,
        listed.length ? `the agent has: ${listed.join(', ')}` : 'the agent has no tools',
      ),
    );
  }
  if (issues.length) throw new ConfigError(issues);
}
