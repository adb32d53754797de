import type { AnthropicMessage, OutputBlock } from './build-message.js';
import { splitIntoEqualChunks, splitIntoWordChunks } from './split-text.js';

/** One server-sent event: `event: <name>` and `data: <JSON of data>`; `data.type` equals `name`. */
export interface SseEvent {
  name: string;
  data: Record<string, unknown> & { type: string };
}

function event(type: string, fields: Record<string, unknown> = {}): SseEvent {
  return { name: type, data: { type, ...fields } };
}

function emptyBlock(block: OutputBlock): Record<string, unknown> {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: '' };
    case 'thinking':
      return { type: 'thinking', thinking: '', signature: '' };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: {} };
  }
}

function blockDeltas(block: OutputBlock): Record<string, unknown>[] {
  switch (block.type) {
    case 'text':
      return splitIntoWordChunks(block.text).map((text) => ({ type: 'text_delta', text }));
    case 'thinking':
      return [
        ...splitIntoWordChunks(block.thinking).map((thinking) => ({ type: 'thinking_delta', thinking })),
        { type: 'signature_delta', signature: block.signature },
      ];
    case 'tool_use':
      return splitIntoEqualChunks(JSON.stringify(block.input)).map((partial_json) => ({
        type: 'input_json_delta',
        partial_json,
      }));
  }
}

/**
 * The event sequence the Messages API streams for a message: `message_start` (empty content,
 * stop_reason null), `ping`, then per block `content_block_start` / `content_block_delta`… /
 * `content_block_stop`, then `message_delta` (stop_reason, output_tokens) and `message_stop`.
 */
export function messageEvents(message: AnthropicMessage): SseEvent[] {
  const { usage } = message;
  const events: SseEvent[] = [
    event('message_start', {
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    }),
    event('ping'),
  ];
  message.content.forEach((block, index) => {
    events.push(event('content_block_start', { index, content_block: emptyBlock(block) }));
    for (const delta of blockDeltas(block)) events.push(event('content_block_delta', { index, delta }));
    events.push(event('content_block_stop', { index }));
  });
  events.push(
    event('message_delta', {
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    }),
    event('message_stop'),
  );
  return events;
}

/** Frames one event for the wire. */
export function formatSseEvent(sseEvent: SseEvent): string {
  return `event: ${sseEvent.name}\ndata: ${JSON.stringify(sseEvent.data)}\n\n`;
}
