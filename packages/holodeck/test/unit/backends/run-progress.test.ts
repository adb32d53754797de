import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { progressOf } from '../../../src/backends/claude/report-run-progress.js';
import { RunAccumulator } from '../../../src/backends/claude/run-accumulator.js';

// The Claude backend's progress as the CLI streams it (hand-built SDK messages: pure translation
// code, DESIGN.md). The CLI sends one assistant message per content block, each carrying its
// response's usage as it was at message_start; message_delta carries the final output count.
// Each response must count once, with its final usage: what the result's totals then equal.

const streamEvent = (event: Record<string, unknown>, parent: string | null = null) => ({
  type: 'stream_event',
  parent_tool_use_id: parent,
  event,
});
const start = (id: string, input: number) =>
  streamEvent({ type: 'message_start', message: { id, usage: { input_tokens: input, output_tokens: 1 } } });
const delta = (output: number) => streamEvent({ type: 'message_delta', usage: { output_tokens: output } });
const assistant = (id: string, input: number, block: Record<string, unknown>) => ({
  type: 'assistant',
  parent_tool_use_id: null,
  message: { id, content: [block], usage: { input_tokens: input, output_tokens: 1 } },
});
const PRICES = { input: 3, output: 15 };

function run(messages: unknown[]) {
  const accumulator = new RunAccumulator(false);
  const seen = messages.map((message) => {
    for (const _event of accumulator.accept(message as SDKMessage)) {
      // events are not what this test is about
    }
    return progressOf(accumulator.state, PRICES);
  });
  return { seen, last: seen.at(-1) };
}

describe('Claude run progress', () => {
  it('counts each response once, with the output count of its message_delta', () => {
    const { seen, last } = run([
      start('r1', 1000),
      assistant('r1', 1000, { type: 'text', text: 'looking' }),
      assistant('r1', 1000, { type: 'tool_use', id: 't1', name: 'Read', input: {} }),
      delta(200),
      start('r2', 1500),
      assistant('r2', 1500, { type: 'text', text: 'done' }),
      delta(300),
    ]);
    expect(seen.map((progress) => progress.token_usage.total_tokens)).toEqual([
      1001, 1001, 1001, 1200, 2701, 2701, 3000,
    ]);
    // The sum over both responses, as the CLI's result reports it (2,500 in, 500 out).
    expect(last).toEqual({
      token_usage: {
        prompt_tokens: 2500,
        completion_tokens: 500,
        total_tokens: 3000,
        cache_read_tokens: 0,
        cache_creation_tokens: 0,
      },
      messages: 2,
      tool_calls: 1,
      // 2,500 × $3 + 500 × $15 per million.
      cost_usd: 0.015,
      wants_next_message: false,
    });
    expect(seen[2]).toMatchObject({ messages: 1, tool_calls: 1, wants_next_message: true });
  });

  it("counts a subagent's responses (their tokens are spent too) but not its tool calls", () => {
    const { last } = run([
      start('r1', 100),
      delta(10),
      streamEvent(
        { type: 'message_start', message: { id: 's1', usage: { input_tokens: 50, output_tokens: 1 } } },
        't1',
      ),
      streamEvent({ type: 'message_delta', usage: { output_tokens: 5 } }, 't1'),
      {
        type: 'assistant',
        parent_tool_use_id: 't1',
        message: { id: 's1', content: [{ type: 'tool_use', id: 'x', name: 'Read', input: {} }], usage: {} },
      },
    ]);
    expect(last).toMatchObject({ messages: 2, tool_calls: 0 });
    expect(last?.token_usage.total_tokens).toBe(165);
  });

  it('without partial messages, counts each response by the usage its first message carried', () => {
    const { last } = run([
      assistant('r1', 1000, { type: 'text', text: 'a' }),
      assistant('r1', 1000, { type: 'text', text: 'b' }),
    ]);
    expect(last).toMatchObject({ messages: 1, token_usage: { total_tokens: 1001 } });
  });

  it('has no cost before the result without pricing:', () => {
    const accumulator = new RunAccumulator(false);
    for (const _event of accumulator.accept(start('r1', 10) as unknown as SDKMessage)) {
      // nothing
    }
    expect(progressOf(accumulator.state, undefined).cost_usd).toBeNull();
  });
});
