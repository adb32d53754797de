import type { AssistantContent, ModelMessage } from 'ai';
import type { SessionMessage } from './session-message.js';

function toModelMessage(message: SessionMessage): ModelMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant': {
      if (!message.toolCalls?.length) return { role: 'assistant', content: message.content };
      const content: Exclude<AssistantContent, string> = [];
      if (message.content) content.push({ type: 'text', text: message.content });
      for (const call of message.toolCalls) {
        content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.arguments });
      }
      return { role: 'assistant', content };
    }
    case 'tool':
      return {
        role: 'tool',
        content: message.results.map((result) => ({
          type: 'tool-result',
          toolCallId: result.callId,
          toolName: result.name,
          output: result.isError
            ? { type: 'error-text', value: result.output }
            : { type: 'text', value: result.output },
        })),
      };
  }
}

/** A conversation kept by HoloDeck as the AI SDK's model messages, for the next request. */
export function toModelMessages(messages: readonly SessionMessage[]): ModelMessage[] {
  return messages.map(toModelMessage);
}
