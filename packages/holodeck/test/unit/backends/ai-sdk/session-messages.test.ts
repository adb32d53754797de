import { describe, expect, it } from 'vitest';
import { fromModelMessages } from '../../../../src/backends/ai-sdk/from-model-messages.js';
import type { SessionMessage } from '../../../../src/backends/ai-sdk/session-message.js';
import { toModelMessages } from '../../../../src/backends/ai-sdk/to-model-messages.js';

const conversation: SessionMessage[] = [
  { role: 'user', content: 'Where is A-1?' },
  {
    role: 'assistant',
    content: 'Looking.',
    toolCalls: [{ id: 'c1', name: 'lookup_order', arguments: { order_id: 'A-1' } }],
  },
  {
    role: 'tool',
    results: [{ callId: 'c1', name: 'lookup_order', output: 'no such order', isError: true }],
  },
  { role: 'assistant', content: 'I could not find A-1.' },
];

describe('session messages ↔ AI SDK model messages', () => {
  it('become model messages with paired tool calls and error results', () => {
    expect(toModelMessages(conversation)).toEqual([
      { role: 'user', content: 'Where is A-1?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup_order', input: { order_id: 'A-1' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'lookup_order',
            output: { type: 'error-text', value: 'no such order' },
          },
        ],
      },
      { role: 'assistant', content: 'I could not find A-1.' },
    ]);
  });

  it('round-trip without loss', () => {
    expect(fromModelMessages(toModelMessages(conversation))).toEqual(conversation);
  });

  it('keep only what a Chat Completions request can carry from SDK response messages', () => {
    expect(
      fromModelMessages([
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'hmm' },
            { type: 'text', text: 'Done' },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c2',
              toolName: 't',
              output: { type: 'json', value: { ok: true } },
            },
          ],
        },
      ]),
    ).toEqual([
      { role: 'assistant', content: 'Done' },
      { role: 'tool', results: [{ callId: 'c2', name: 't', output: '{"ok":true}', isError: false }] },
    ]);
  });
});
