import type { SessionTranscript, TranscriptTurn } from '../contract/index.js';
import type { SessionFile } from './session-file-schema.js';

/**
 * A saved AI SDK session as turns: each user message starts one, the assistant's tool calls are
 * its tools, and the assistant's last text (after its last tool call) is its answer.
 */
export function transcriptOfSession(saved: SessionFile): SessionTranscript {
  const turns: TranscriptTurn[] = [];
  for (const message of saved.messages) {
    if (message.role === 'user') {
      turns.push({ input: message.content, toolCalls: [], response: '' });
      continue;
    }
    const turn = turns.at(-1);
    if (!turn || message.role !== 'assistant') continue;
    const calls = message.toolCalls ?? [];
    turn.toolCalls.push(...calls.map((call) => ({ name: call.name, arguments: call.arguments })));
    turn.response = calls.length ? '' : message.content;
  }
  return { sessionId: saved.sessionId, turns };
}
