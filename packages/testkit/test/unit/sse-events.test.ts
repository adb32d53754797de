import { describe, expect, it } from 'vitest';
import { message, reply, thinking, toolUse } from '../../src/script/step-builders.js';
import { buildMessage } from '../../src/wire/build-message.js';
import { formatSseEvent, messageEvents } from '../../src/wire/sse-events.js';
import { deltaEvents, joinedJson, joinedText } from '../support/event-schemas.js';

const context = { sequence: 7, requestModel: 'claude-test', requestBodyLength: 400 };

describe('messageEvents', () => {
  it('streams a text reply as message_start, ping, block start/deltas/stop, message_delta, message_stop', () => {
    const events = messageEvents(buildMessage(reply('one two three four five six'), context));
    expect(events.map((event) => event.name)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const event of events) expect(event.data.type).toBe(event.name);
    expect(events[0]?.data).toMatchObject({
      message: {
        id: 'msg_fake_7',
        type: 'message',
        role: 'assistant',
        model: 'claude-test',
        content: [],
        stop_reason: null,
        usage: { input_tokens: 100 },
      },
    });
    expect(joinedText(events.map((event) => event.data))).toBe('one two three four five six');
    expect(events.at(-2)?.data).toMatchObject({ delta: { stop_reason: 'end_turn', stop_sequence: null } });
  });

  it('streams tool input as input_json_delta pieces that join to the JSON input', () => {
    const events = messageEvents(
      buildMessage(toolUse('mcp__calc__add', { a: 2, b: 3 }, { text: 'Adding.' }), context),
    );
    const starts = events.filter((event) => event.name === 'content_block_start');
    expect(starts.map((event) => event.data.content_block)).toEqual([
      { type: 'text', text: '' },
      { type: 'tool_use', id: 'toolu_fake_7_1', name: 'mcp__calc__add', input: {} },
    ]);
    const toolDeltas = deltaEvents(events.map((event) => event.data)).filter((event) => event.index === 1);
    expect(toolDeltas.every((event) => event.delta.type === 'input_json_delta')).toBe(true);
    expect(
      JSON.parse(
        joinedJson(
          events.map((event) => event.data),
          1,
        ),
      ),
    ).toEqual({ a: 2, b: 3 });
    expect(events.at(-2)?.data).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  });

  it('streams thinking as thinking_delta pieces then one signature_delta, before the text block', () => {
    const events = messageEvents(buildMessage(thinking('Let me think about it.', 'Done.'), context));
    const deltas = deltaEvents(events.map((event) => event.data))
      .filter((event) => event.index === 0)
      .map((event) => event.delta);
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.slice(0, -1).every((delta) => delta.type === 'thinking_delta')).toBe(true);
    expect(deltas.at(-1)).toEqual({ type: 'signature_delta', signature: 'fake-anthropic-signature' });
    expect(events.find((event) => event.name === 'content_block_start')?.data.content_block).toEqual({
      type: 'thinking',
      thinking: '',
      signature: '',
    });
  });

  it('reports scripted usage and model instead of the estimates', () => {
    const step = message([{ type: 'text', text: 'hi' }], {
      usage: { input_tokens: 11, output_tokens: 22, cache_read_input_tokens: 33 },
      model: 'claude-other',
      stopReason: 'max_tokens',
    });
    const events = messageEvents(buildMessage(step, context));
    expect(events[0]?.data).toMatchObject({
      message: { model: 'claude-other', usage: { input_tokens: 11, cache_read_input_tokens: 33 } },
    });
    expect(events.at(-2)?.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'max_tokens', stop_sequence: null },
      usage: { output_tokens: 22 },
    });
  });
});

describe('formatSseEvent', () => {
  it('frames an event as event/data lines and a blank line', () => {
    expect(formatSseEvent({ name: 'ping', data: { type: 'ping' } })).toBe(
      'event: ping\ndata: {"type":"ping"}\n\n',
    );
  });
});
