import { describe, expect, it } from 'vitest';
import { translateStreamPart } from '../../../../src/backends/ai-sdk/translate-stream-part.js';
import { createTurnState } from '../../../../src/backends/ai-sdk/turn-state.js';
import {
  finishStep,
  type Part,
  startStep,
  text,
  toolCall,
  toolError,
  toolResult,
  usage,
} from './stream-parts.js';

function feed(parts: Part[]) {
  const state = createTurnState();
  const events = parts.flatMap((part) => translateStreamPart(part, state));
  return { state, events };
}

describe('translateStreamPart', () => {
  it('streams text deltas and keeps the last step text as the answer', () => {
    const { state, events } = feed([startStep, text('Hel'), text('lo'), finishStep('stop')]);
    expect(events).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
    ]);
    expect(state.finalText).toBe('Hello');
    expect(state.steps).toBe(1);
    expect(state.lastFinishReason).toBe('stop');
  });

  it('pairs tool calls and results by id across steps, and sums usage', () => {
    const { state, events } = feed([
      startStep,
      text('Let me look.'),
      toolCall('c1', 'lookup_order', { order_id: 'A-1' }),
      toolResult('c1', 'lookup_order', { text: 'shipped', isError: false }),
      finishStep('tool-calls', usage(10, 5, 4)),
      startStep,
      text('It shipped.'),
      finishStep('stop', usage(20, 3)),
    ]);
    expect(events.filter((event) => event.type !== 'text-delta')).toEqual([
      { type: 'tool-call', callId: 'c1', name: 'lookup_order', arguments: { order_id: 'A-1' } },
      { type: 'tool-result', callId: 'c1', name: 'lookup_order', result: 'shipped', isError: false },
    ]);
    expect(state.toolCalls).toEqual([
      { name: 'lookup_order', arguments: { order_id: 'A-1' }, call_id: 'c1' },
    ]);
    expect(state.toolResults).toEqual([{ call_id: 'c1', result: 'shipped', is_error: false }]);
    expect(state.finalText).toBe('It shipped.');
    expect(state.steps).toBe(2);
    expect(state.usage).toEqual({
      prompt_tokens: 30,
      completion_tokens: 8,
      total_tokens: 38,
      cache_read_tokens: 4,
      cache_creation_tokens: 0,
    });
  });

  it('reports a failed tool as an error result, and a tool error (unknown tool, bad JSON) too', () => {
    const { state, events } = feed([
      toolCall('c1', 'lookup_order', { order_id: 7 }),
      toolResult('c1', 'lookup_order', {
        text: 'Invalid arguments for "lookup_order": /order_id must be string',
        isError: true,
      }),
      toolCall('c2', 'no_such_tool', '{not json'),
      toolError('c2', 'no_such_tool', new Error("Model tried to call unavailable tool 'no_such_tool'.")),
    ]);
    expect(state.toolCalls[1]).toEqual({ name: 'no_such_tool', arguments: {}, call_id: 'c2' });
    expect(state.toolResults).toEqual([
      {
        call_id: 'c1',
        result: 'Invalid arguments for "lookup_order": /order_id must be string',
        is_error: true,
      },
      { call_id: 'c2', result: "Model tried to call unavailable tool 'no_such_tool'.", is_error: true },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'tool-result', callId: 'c2', isError: true });
  });

  it('turns reasoning into thinking deltas and records errors and aborts without events', () => {
    const { state, events } = feed([
      { type: 'reasoning-delta', id: 'r', text: 'thinking…' },
      { type: 'error', error: new Error('boom') },
      { type: 'abort', reason: 'stopped by test' },
    ]);
    expect(events).toEqual([{ type: 'thinking-delta', text: 'thinking…' }]);
    expect(state.error).toEqual({ value: new Error('boom') });
    expect(state.abort).toEqual({ reason: 'stopped by test' });
  });

  it('reports non-HoloDeck tool output as JSON text', () => {
    const { state } = feed([toolCall('c1', 'x', {}), toolResult('c1', 'x', { rows: 2 })]);
    expect(state.toolResults).toEqual([{ call_id: 'c1', result: '{"rows":2}', is_error: false }]);
  });
});
