import { splitIntoEqualChunks, splitIntoWordChunks } from '../wire/split-text.js';
import type { ChatCompletion, ChatCompletionUsage } from './build-chat-completion.js';

/** One `chat.completion.chunk` object, as streamed in a `data:` line. */
export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  system_fingerprint: string;
  choices: { index: 0; delta: Record<string, unknown>; logprobs: null; finish_reason: string | null }[];
  /** Present (null until the last chunk) only when `stream_options.include_usage` is set. */
  usage?: ChatCompletionUsage | null;
}

/**
 * The chunks Chat Completions streams for a completion, in order:
 * 1. `delta: {role: 'assistant', content: ''}` (content `null` when the message has no text);
 * 2. `reasoning_content` pieces, then `content` pieces (about 3, split at word boundaries);
 * 3. per tool call, `{index, id, type, function: {name, arguments: ''}}`, then its
 *    `function.arguments` in pieces (partial JSON);
 * 4. an empty delta with `finish_reason`;
 * 5. with `includeUsage`, a chunk with `choices: []` and the usage (earlier chunks carry `usage: null`).
 */
export function buildChatChunks(
  completion: ChatCompletion,
  options: { includeUsage: boolean },
): ChatCompletionChunk[] {
  const { message, finish_reason } = completion.choices[0];
  const chunk = (
    delta: Record<string, unknown>,
    finishReason: string | null = null,
  ): ChatCompletionChunk => ({
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
    system_fingerprint: completion.system_fingerprint,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(options.includeUsage ? { usage: null } : {}),
  });

  const chunks = [chunk({ role: 'assistant', content: message.content === null ? null : '', refusal: null })];
  if (message.reasoning_content !== undefined) {
    for (const piece of splitIntoWordChunks(message.reasoning_content))
      chunks.push(chunk({ reasoning_content: piece }));
  }
  if (message.content !== null) {
    for (const piece of splitIntoWordChunks(message.content)) chunks.push(chunk({ content: piece }));
  }
  (message.tool_calls ?? []).forEach((call, index) => {
    chunks.push(
      chunk({
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } },
        ],
      }),
    );
    for (const piece of splitIntoEqualChunks(call.function.arguments)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk({}, finish_reason));
  if (options.includeUsage) chunks.push({ ...chunk({}), choices: [], usage: completion.usage });
  return chunks;
}

/** Frames chunks for the wire: one `data: <JSON>` event each, then `data: [DONE]`. */
export function chatChunkFrames(chunks: readonly ChatCompletionChunk[]): string[] {
  return [...chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`), 'data: [DONE]\n\n'];
}
