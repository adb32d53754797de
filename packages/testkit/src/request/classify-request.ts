import { messageText } from './message-text.js';
import type { MessagesBody } from './messages-body.js';

/** Whether a `/v1/messages` request consumes a script step, and why. */
export interface RequestClassification {
  kind: 'agent-loop' | 'auxiliary';
  reason: string;
}

/**
 * Text the Claude Code CLI puts into every agent-loop conversation: the environment context
 * (working directory, platform, ...). It is a `<system-reminder>` in the first user message,
 * or a `system`-role message for models the CLI does not know.
 */
export const ENVIRONMENT_CONTEXT_MARKER = 'You have been invoked in the following environment';

/**
 * Prompts of "forks": requests that copy the whole agent-loop conversation (same system prompt,
 * tools and history, for prompt-cache reuse) and append one instruction as the last user message.
 * - `[SUGGESTION MODE:` — prompt suggestions (SDK option `promptSuggestions: true`), observed.
 * - `most recent action in 3-5 words` — subagent progress summaries (`agentProgressSummaries`),
 *   taken from the CLI's prompt text, not observed.
 */
export const FORK_PROMPT_MARKERS: readonly string[] = [
  '[SUGGESTION MODE:',
  'most recent action in 3-5 words using present tense',
];

/** `user-agent` prefix of the Claude Code CLI, e.g. `claude-cli/2.1.332 (external, sdk-ts, agent-sdk/0.3.332)`. */
export const CLAUDE_CLI_USER_AGENT_PREFIX = 'claude-cli/';

function hasEnvironmentContext(body: MessagesBody): boolean {
  return body.messages.some(
    (message) =>
      (message.role === 'user' || message.role === 'system') &&
      messageText(message).includes(ENVIRONMENT_CONTEXT_MARKER),
  );
}

/**
 * The rule that decides which requests are the agent loop (and consume script steps).
 * Measured on CLI 2.1.332 with CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 (see README.md):
 *
 * 1. `max_tokens <= 1` → auxiliary "probe" (the CLI's model-validation / quota check sends
 *    `"Hi"` with `max_tokens: 1`).
 * 2. The last message is a user message containing a fork prompt marker → auxiliary "fork".
 * 3. Sent by the Claude Code CLI (user-agent `claude-cli/…`) without the environment context
 *    → auxiliary "helper": tool-free side queries such as tool-use summary labels
 *    (CLAUDE_CODE_EMIT_TOOL_USE_SUMMARIES) or session titles. They reuse the SDK system prompt
 *    and model, and even arrive *between* two agent-loop requests, so only the missing
 *    environment context tells them apart.
 * 4. Everything else is the agent loop: the main conversation and subagent conversations
 *    (both carry the environment context), and any request from another client (plain `fetch`
 *    in tests, the Anthropic SDK), which the server cannot tell apart anyway.
 */
export function classifyMessagesRequest(
  body: MessagesBody,
  headers: Readonly<Record<string, string>>,
): RequestClassification {
  if (body.max_tokens <= 1) {
    return { kind: 'auxiliary', reason: `probe: max_tokens ${body.max_tokens}` };
  }
  const last = body.messages.at(-1);
  if (last !== undefined && last.role === 'user') {
    const text = messageText(last);
    const marker = FORK_PROMPT_MARKERS.find((candidate) => text.includes(candidate));
    if (marker !== undefined) {
      return { kind: 'auxiliary', reason: `fork: last user message contains ${JSON.stringify(marker)}` };
    }
  }
  const fromClaudeCli = (headers['user-agent'] ?? '').startsWith(CLAUDE_CLI_USER_AGENT_PREFIX);
  if (fromClaudeCli && !hasEnvironmentContext(body)) {
    return { kind: 'auxiliary', reason: 'helper: Claude Code request without the environment context' };
  }
  return {
    kind: 'agent-loop',
    reason: fromClaudeCli
      ? 'Claude Code conversation with environment context'
      : 'not from the Claude Code CLI',
  };
}
