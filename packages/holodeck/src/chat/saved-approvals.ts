import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../support.js';

/** Where the tools "always allowed" in this agent's chats are kept (beside its prompt history). */
export function savedApprovalsPath(agentDirectory: string): string {
  return path.join(agentDirectory, '.holodeck', 'chat-approvals.json');
}

/** The tools the user chose to always allow for this agent; an unreadable file allows none. */
export function readSavedApprovals(agentDirectory: string): Set<string> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(savedApprovalsPath(agentDirectory), 'utf8'));
    const tools =
      typeof parsed === 'object' && parsed !== null && 'always_allowed' in parsed
        ? parsed.always_allowed
        : [];
    return new Set(
      Array.isArray(tools) ? tools.filter((tool): tool is string => typeof tool === 'string') : [],
    );
  } catch {
    return new Set();
  }
}

/** Adds a tool to the agent's always-allowed tools and saves them (mode 0600); the error when it cannot. */
export function saveAlwaysAllowed(
  agentDirectory: string,
  allowed: Set<string>,
  tool: string,
): string | undefined {
  allowed.add(tool);
  try {
    const file = savedApprovalsPath(agentDirectory);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ always_allowed: [...allowed].sort() }, null, 2)}\n`, {
      mode: 0o600,
    });
    return undefined;
  } catch (error) {
    return errorMessage(error);
  }
}
