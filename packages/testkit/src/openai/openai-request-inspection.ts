import { type ChatMessageParam, type ChatResponseFormat, textPartSchema } from './chat-completions-body.js';
import { embeddingsInputList } from './embeddings-body.js';
import type { OpenAIRecordedRequest } from './openai-recorded-request.js';

/** A `role: 'tool'` message a client sent back, paired with the tool call it answers. */
export interface SentChatToolResult {
  toolCallId: string;
  /** Name of the earlier assistant tool call with that id; `undefined` if none matches. */
  toolName: string | undefined;
  /** The message content (text parts joined by newlines). */
  text: string;
}

/** Which token limit field a request used, and its value. */
export interface ChatTokenLimit {
  field: 'max_tokens' | 'max_completion_tokens';
  value: number;
}

/** The text of a message: its string content, or its text parts joined by newlines. */
export function chatMessageText(message: ChatMessageParam): string {
  const content = message.content;
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content
    .flatMap((part) => {
      const text = textPartSchema.safeParse(part);
      return text.success ? [text.data.text] : [];
    })
    .join('\n');
}

/** The messages of a chat completions request (validated); `[]` for other requests. */
export function chatMessages(request: OpenAIRecordedRequest): ChatMessageParam[] {
  return request.chatBody?.messages ?? [];
}

/** The system prompt: the text of every `system` and `developer` message, joined by newlines. */
export function chatSystemText(request: OpenAIRecordedRequest): string {
  return chatMessages(request)
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map(chatMessageText)
    .join('\n');
}

/** The text of the last user message; `''` when there is none. */
export function chatLastUserText(request: OpenAIRecordedRequest): string {
  const last = chatMessages(request).findLast((message) => message.role === 'user');
  return last === undefined ? '' : chatMessageText(last);
}

/** Names of the function tools offered to the model. */
export function chatToolNames(request: OpenAIRecordedRequest): string[] {
  return (request.chatBody?.tools ?? []).map((tool) => tool.function.name);
}

/** Every `role: 'tool'` message of the request, in order, with the name of the tool call it answers. */
export function chatToolResults(request: OpenAIRecordedRequest): SentChatToolResult[] {
  const names = new Map<string, string>();
  const results: SentChatToolResult[] = [];
  for (const message of chatMessages(request)) {
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
    } else if (message.role === 'tool') {
      results.push({
        toolCallId: message.tool_call_id,
        toolName: names.get(message.tool_call_id),
        text: chatMessageText(message),
      });
    }
  }
  return results;
}

/** The request's `response_format`, if any. */
export function chatResponseFormat(request: OpenAIRecordedRequest): ChatResponseFormat | undefined {
  return request.chatBody?.response_format;
}

/** The request's `temperature`, if set. */
export function chatTemperature(request: OpenAIRecordedRequest): number | undefined {
  return request.chatBody?.temperature ?? undefined;
}

/**
 * The token limit the request set: `max_completion_tokens` (what the AI SDK sends for reasoning
 * models) or `max_tokens`; `undefined` when neither is set.
 */
export function chatMaxTokens(request: OpenAIRecordedRequest): ChatTokenLimit | undefined {
  const body = request.chatBody;
  if (typeof body?.max_completion_tokens === 'number') {
    return { field: 'max_completion_tokens', value: body.max_completion_tokens };
  }
  if (typeof body?.max_tokens === 'number') return { field: 'max_tokens', value: body.max_tokens };
  return undefined;
}

/** The inputs of an embeddings request as a list; `[]` for other requests. */
export function embeddingsInputs(request: OpenAIRecordedRequest): string[] {
  return request.embeddingsBody === undefined ? [] : embeddingsInputList(request.embeddingsBody);
}
