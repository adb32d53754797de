import type { ChatCompletionsBody } from './chat-completions-body.js';

/** Describes tool calls that no tool message answered, as OpenAI's 400 does. */
function unanswered(assistantIndex: number, pending: ReadonlySet<string>): string {
  const ids = [...pending].map((id) => JSON.stringify(id)).join(', ');
  return `messages.${assistantIndex}: an assistant message with tool_calls must be followed by tool messages responding to each tool_call_id; no response for ${ids}`;
}

/**
 * Rules of the real API that span messages, which a zod shape cannot express:
 * - an assistant message carries `content` or `tool_calls`;
 * - a `tool` message answers a tool call of the assistant message right before it (the run of
 *   tool messages that follows it), and every such tool call gets an answer;
 * - `tool_choice` names an offered tool.
 * Returns one line per problem; `[]` when the body is fine.
 */
export function chatBodyProblems(body: ChatCompletionsBody): string[] {
  const problems: string[] = [];
  const seenToolCallIds = new Set<string>();
  let pending = new Set<string>();
  let pendingFrom = -1;

  body.messages.forEach((message, index) => {
    if (message.role === 'tool') {
      if (pending.has(message.tool_call_id)) {
        pending.delete(message.tool_call_id);
        return;
      }
      const id = JSON.stringify(message.tool_call_id);
      problems.push(
        seenToolCallIds.has(message.tool_call_id)
          ? `messages.${index}: tool_call_id ${id} does not answer the assistant message right before it (answered twice, or out of place)`
          : `messages.${index}: tool_call_id ${id} matches no earlier assistant tool call`,
      );
      return;
    }
    if (pending.size > 0) problems.push(unanswered(pendingFrom, pending));
    pending = new Set();
    if (message.role !== 'assistant') return;
    const toolCalls = message.tool_calls ?? [];
    if ((message.content === null || message.content === undefined) && toolCalls.length === 0) {
      problems.push(`messages.${index}: an assistant message needs content or tool_calls`);
    }
    for (const call of toolCalls) {
      pending.add(call.id);
      seenToolCallIds.add(call.id);
    }
    pendingFrom = index;
  });
  if (pending.size > 0) problems.push(unanswered(pendingFrom, pending));

  const choice = body.tool_choice;
  if (choice !== undefined && typeof choice !== 'string') {
    const offered = (body.tools ?? []).map((tool) => tool.function.name);
    if (!offered.includes(choice.function.name)) {
      problems.push(
        `tool_choice: names the function ${JSON.stringify(choice.function.name)}, which is not among the tools offered`,
      );
    }
  }
  return problems;
}
