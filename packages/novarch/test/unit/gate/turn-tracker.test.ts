import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { TurnTracker } from '../../../src/gate/turn-tracker.js';

// The turn tracker learns which calls the model made together from the SDK stream; with partial
// messages it also learns where each API message ends (issue 24), per lane (main thread, subagents).

/** A partial message (`includePartialMessages`) as the SDK yields it. */
function streamEvent(event: Record<string, unknown>, lane: string | null = null): SDKMessage {
  return {
    type: 'stream_event',
    event,
    parent_tool_use_id: lane,
    uuid: '00000000-0000-4000-8000-000000000002',
    session_id: 'sdk-session',
  } as unknown as SDKMessage;
}
const start = (messageId: string, lane: string | null = null) =>
  streamEvent({ type: 'message_start', message: { id: messageId } }, lane);
const toolBlock = (id: string, name: string, lane: string | null = null) =>
  streamEvent(
    { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id, name, input: {} } },
    lane,
  );
const stop = (lane: string | null = null) => streamEvent({ type: 'message_stop' }, lane);
const assistant = (messageId: string, calls: [string, string][]): SDKMessage =>
  ({
    type: 'assistant',
    parent_tool_use_id: null,
    session_id: 'sdk-session',
    message: {
      id: messageId,
      content: calls.map(([id, name]) => ({ type: 'tool_use', id, name, input: {} })),
    },
  }) as unknown as SDKMessage;

const soon = (ms: number) => Date.now() + ms;

describe('TurnTracker with partial messages', () => {
  it("waits for the write's message to end, then knows the calls streamed after it", async () => {
    const turns = new TurnTracker();
    turns.observe(start('m1'));
    turns.observe(toolBlock('r1', 'refund'));
    expect(turns.siblingsOf('r1')).toEqual([]);
    let settled = false;
    const end = turns.waitForMessageEnd('r1', soon(5_000)).then((outcome) => {
      settled = true;
      return outcome;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    turns.observe(toolBlock('r2', 'refund'));
    turns.observe(stop());
    expect(await end).toBe('ended');
    expect(turns.siblingsOf('r1')).toEqual([{ id: 'r2', name: 'refund' }]);
  });

  it('a message that does not end by the deadline times out; an abort ends the wait', async () => {
    const turns = new TurnTracker();
    turns.observe(start('m1'));
    turns.observe(toolBlock('r1', 'refund'));
    expect(await turns.waitForMessageEnd('r1', soon(30))).toBe('timed-out');
    const controller = new AbortController();
    const aborted = turns.waitForMessageEnd('r1', soon(5_000), controller.signal);
    controller.abort();
    expect(await aborted).toBe('aborted');
  });

  it("keeps a subagent's stream apart from the main thread's", async () => {
    const turns = new TurnTracker();
    turns.observe(start('main-1'));
    turns.observe(toolBlock('a1', 'Agent'));
    turns.observe(start('sub-1', 'a1'));
    turns.observe(toolBlock('s1', 'refund', 'a1'));
    turns.observe(stop());
    turns.observe(stop('a1'));
    expect(await turns.waitForMessageEnd('s1', soon(1_000))).toBe('ended');
    expect(turns.siblingsOf('s1')).toEqual([]);
    expect(turns.siblingsOf('a1')).toEqual([]);
  });
});

describe('TurnTracker without partial messages', () => {
  it('knows the calls streamed so far, and says it cannot tell where the message ends', async () => {
    const turns = new TurnTracker();
    turns.observe(assistant('m1', [['r1', 'refund']]));
    expect(turns.observing).toBe(true);
    expect(await turns.waitFor('r1', 10)).toBe(true);
    expect(await turns.waitForMessageEnd('r1', soon(1_000))).toBe('unknown');
    turns.observe(assistant('m1', [['l1', 'lookup']]));
    expect(turns.siblingsOf('r1')).toEqual([{ id: 'l1', name: 'lookup' }]);
  });
});
