import { messageText } from './message-text.js';
import { textBlockSchema, toolResultBlockSchema } from './messages-body.js';
import type { RecordedRequest } from './recorded-request.js';

/** A tool_result block the CLI sent back to the model. */
export interface SentToolResult {
  toolUseId: string;
  /** The result's text blocks joined by newlines (the CLI may append `<system-reminder>` blocks). */
  text: string;
  isError: boolean;
}

/** The system prompt as one string (text blocks joined by newlines); `''` when there is none. */
export function systemPromptText(request: RecordedRequest): string {
  const system = request.messagesBody?.system;
  if (system === undefined) return '';
  if (typeof system === 'string') return system;
  return system.flatMap((block) => (block.text === undefined ? [] : [block.text])).join('\n');
}

/** The text of the last user message (its text blocks joined by newlines). */
export function lastUserText(request: RecordedRequest): string {
  const messages = request.messagesBody?.messages ?? [];
  const last = messages.findLast((message) => message.role === 'user');
  return last === undefined ? '' : messageText(last);
}

/** Names of the tools offered to the model. */
export function toolNames(request: RecordedRequest): string[] {
  return (request.messagesBody?.tools ?? []).map((tool) => tool.name);
}

/** Every tool_result block in the request's messages, in order. */
export function toolResults(request: RecordedRequest): SentToolResult[] {
  const results: SentToolResult[] = [];
  for (const message of request.messagesBody?.messages ?? []) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      const parsed = toolResultBlockSchema.safeParse(block);
      if (!parsed.success) continue;
      const { content } = parsed.data;
      const text =
        typeof content === 'string'
          ? content
          : (content ?? [])
              .flatMap((part) => {
                const textPart = textBlockSchema.safeParse(part);
                return textPart.success ? [textPart.data.text] : [];
              })
              .join('\n');
      results.push({ toolUseId: parsed.data.tool_use_id, text, isError: parsed.data.is_error === true });
    }
  }
  return results;
}
