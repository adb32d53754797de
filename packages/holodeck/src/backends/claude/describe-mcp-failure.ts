import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { LoadedAgent } from '../../config/index.js';

/** A server of agent.yaml as a failure names it: its entry and place, and what HoloDeck can tell of its cause. */
export interface McpServerPlace {
  /** `tools[0] at /srv/agent/agent.yaml:12:5, command x` */
  where: string;
  /** Why it would not start, when HoloDeck can tell (a command not on PATH or not executable). */
  cause(): string | undefined;
}

/** Where `command` would be found: a path as given (relative to `cwd`), or the first PATH entry holding it. */
function findCommand(
  command: string,
  cwd: string,
  env: Record<string, string | undefined>,
): string | undefined {
  const executable = (file: string) => {
    try {
      return statSync(file).isFile() ? file : undefined;
    } catch {
      return undefined;
    }
  };
  if (command.includes('/')) return executable(path.resolve(cwd, command));
  for (const folder of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const found = executable(path.join(folder, command));
    if (found) return found;
  }
  return undefined;
}

/** The MCP servers of agent.yaml by name, with their place, for the Claude CLI's bare "failed" status. */
export function mcpServerPlaces(
  agent: LoadedAgent,
  env: Record<string, string | undefined> = process.env,
): Map<string, McpServerPlace> {
  const places = new Map<string, McpServerPlace>();
  for (const [index, tool] of (agent.config.tools ?? []).entries()) {
    if (tool.type !== 'mcp') continue;
    const position = agent.locate?.(['tools', index]);
    const at = position ? ` at ${agent.file}:${position.line}:${position.column}` : ` in ${agent.file}`;
    const stdio = tool.transport === 'stdio';
    const target = stdio ? `command ${tool.command}` : `url ${tool.url}`;
    places.set(tool.name, {
      where: `tools[${index}]${at}, ${target}`,
      cause: () => {
        if (!stdio || !tool.command) return undefined;
        const cwd = tool.cwd ?? agent.directory;
        const found = findCommand(tool.command, cwd, { ...env, ...(tool.env ?? {}) });
        if (!found)
          return `spawn ${tool.command} ENOENT (${tool.command.includes('/') ? 'no such file' : 'not found on PATH'})`;
        try {
          accessSync(found, constants.X_OK);
        } catch {
          return `${found} is not executable (chmod +x it, or start it through its interpreter: command: node, args: [...])`;
        }
        return undefined;
      },
    });
  }
  return places;
}

/**
 * Why a run cannot be trusted when MCP servers did not connect, in the AI SDK backend's form:
 * `MCP server "srv" (tools[0] at agent.yaml:12:5, command x) did not start: spawn x ENOENT …`.
 */
export function describeMcpFailures(
  failures: readonly { name: string; status: string }[],
  places: ReadonlyMap<string, McpServerPlace> | undefined,
  consequence: string,
): string {
  const lines = failures.map((server) => {
    const place = places?.get(server.name);
    const cause = place?.cause() ?? `the Claude CLI reports it ${server.status}`;
    return `MCP server "${server.name}"${place ? ` (${place.where})` : ''} did not start: ${cause}`;
  });
  return `${lines.join('; ')}, so ${consequence}\n  check its command/url and env in agent.yaml`;
}
