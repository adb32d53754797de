import { ClaudeBackend } from '../../../src/backends/claude/claude-backend.js';
import type { ConversationMessage, ExecutionResult } from '../../../src/backends/contract/index.js';
import { createE2eAgent, type E2eAgent, type E2eAgentOptions } from './e2e-agent.js';

/** Loads `agent`, runs one `invokeOnce` through a fresh ClaudeBackend, and always tears it down. */
export async function invokeE2eAgent(
  agent: E2eAgent,
  message: string,
  context?: readonly ConversationMessage[],
): Promise<ExecutionResult> {
  const backend = new ClaudeBackend(await agent.load());
  await backend.initialize();
  try {
    return await backend.invokeOnce(message, context);
  } finally {
    await backend.teardown();
  }
}

/** Writes an agent wired to the fake model at `baseUrl` ({config, files, env}) and invokes it once. */
export function invokeAgent(
  baseUrl: string,
  message: string,
  options: E2eAgentOptions = {},
): Promise<ExecutionResult> {
  return invokeE2eAgent(createE2eAgent(baseUrl, options), message);
}
