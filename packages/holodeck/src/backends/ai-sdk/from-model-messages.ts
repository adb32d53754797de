import type { ModelMessage, ToolResultPart } from 'ai';
import { isRecord } from '../../support.js';
import type { SessionMessage } from './session-message.js';

/** A tool result's output as the text the model read, and whether it was an error. */
function outputText(output: ToolResultPart['output']): { text: string; isError: boolean } {
  switch (output.type) {
    case 'text':
      return { text: output.value, isError: false };
    case 'error-text':
      return { text: output.value, isError: true };
    case 'json':
      return { text: JSON.stringify(output.value), isError: false };
    case 'error-json':
      return { text: JSON.stringify(output.value), isError: true };
    case 'execution-denied':
      return { text: output.reason ?? 'the tool call was denied', isError: true };
    case 'content':
      return {
        text: output.value.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n'),
        isError: false,
      };
  }
}

/**
 * The messages of a finished turn (the AI SDK's response messages) in the provider-neutral shape a
 * session keeps. Reasoning and other parts a Chat Completions request cannot carry are left out.
 */
export function fromModelMessages(messages: readonly ModelMessage[]): SessionMessage[] {
  const result: SessionMessage[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      const content =
        typeof message.content === 'string'
          ? message.content
          : message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
      result.push({ role: 'user', content });
    } else if (message.role === 'assistant') {
      if (typeof message.content === 'string') {
        result.push({ role: 'assistant', content: message.content });
        continue;
      }
      const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
      const toolCalls = message.content.flatMap((part) =>
        part.type === 'tool-call'
          ? [{ id: part.toolCallId, name: part.toolName, arguments: isRecord(part.input) ? part.input : {} }]
          : [],
      );
      result.push({ role: 'assistant', content: text, ...(toolCalls.length ? { toolCalls } : {}) });
    } else if (message.role === 'tool') {
      const results = message.content.flatMap((part) => {
        if (part.type !== 'tool-result') return [];
        const { text, isError } = outputText(part.output);
        return [{ callId: part.toolCallId, name: part.toolName, output: text, isError }];
      });
      if (results.length) result.push({ role: 'tool', results });
    }
  }
  return result;
}
