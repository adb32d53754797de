import type { HookInput, SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { LimitToolGate } from '../../../src/backends/claude/limit-tool-gate.js';

// Hand-built SDK messages: the gate is ordering logic (the race it closes is in
// test/e2e/attempt-limits.e2e.test.ts, against the real CLI).
const pre = (tool_use_id: string) =>
  ({
    hook_event_name: 'PreToolUse',
    tool_name: 'lookup',
    tool_input: {},
    tool_use_id,
  }) as unknown as HookInput;
const stream = (type: 'message_start' | 'message_stop', parent: string | null = null) =>
  ({ type: 'stream_event', parent_tool_use_id: parent, event: { type } }) as unknown as SDKMessage;
const assistant = (id: string, parent: string | null = null) =>
  ({
    type: 'assistant',
    parent_tool_use_id: parent,
    message: { content: [{ type: 'tool_use', id, name: 'lookup', input: {} }] },
  }) as unknown as SDKMessage;
const result = { type: 'result' } as unknown as SDKMessage;

type Answer = { settled: boolean; value: unknown };

function ask(gate: LimitToolGate, id: string, signal = new AbortController().signal): Answer {
  const hook = gate.hooks.PreToolUse?.[0]?.hooks[0];
  const answer: Answer = { settled: false, value: undefined };
  void hook?.(pre(id), id, { signal }).then((value) => {
    answer.settled = true;
    answer.value = value;
  });
  return answer;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('LimitToolGate', () => {
  it('fails closed when its hook throws', () => {
    expect(new LimitToolGate().hooks.PreToolUse?.[0]?.onFailure).toBe('block');
  });

  it('lets every call through at once when no run is armed', async () => {
    const gate = new LimitToolGate();
    gate.observe(stream('message_start'));
    gate.observe(assistant('t1'));
    const answer = ask(gate, 't1');
    await tick();
    expect(answer).toEqual({ settled: true, value: {} });
  });

  it('holds a call until the response that asked for it has been read to its end', async () => {
    const gate = new LimitToolGate();
    gate.arm(new AbortController().signal);
    gate.observe(stream('message_start'));
    const early = ask(gate, 't1'); // the hook arrives before the run has read the call
    gate.observe(assistant('t1'));
    await tick();
    expect(early.settled).toBe(false);
    gate.observe(stream('message_stop'));
    await tick();
    expect(early).toEqual({ settled: true, value: {} });
    // A call whose response already ended passes at once.
    const late = ask(gate, 't1');
    await tick();
    expect(late.settled).toBe(true);
  });

  it('holds the call of a stopped run unanswered until disarm(), then denies it', async () => {
    const gate = new LimitToolGate();
    const run = new AbortController();
    gate.arm(run.signal);
    gate.observe(stream('message_start'));
    gate.observe(assistant('t1'));
    const answer = ask(gate, 't1');
    run.abort(); // the meter saw the response's final usage cross a limit
    gate.observe(stream('message_stop'));
    await tick();
    expect(answer.settled).toBe(false);
    gate.disarm();
    await tick();
    expect(answer.value).toMatchObject({
      hookSpecificOutput: {
        permissionDecision: 'deny',
        permissionDecisionReason: expect.stringMatching(/limits/),
      },
    });
  });

  it('denies a held call when the CLI cancels the hook', async () => {
    const gate = new LimitToolGate();
    const run = new AbortController();
    const hook = new AbortController();
    gate.arm(run.signal);
    gate.observe(assistant('t1'));
    run.abort();
    const answer = ask(gate, 't1', hook.signal);
    await tick();
    expect(answer.settled).toBe(false);
    hook.abort();
    await tick();
    expect(answer.value).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });

  it("does not hold a subagent's calls, calls read with no stream, or calls after the result", async () => {
    const gate = new LimitToolGate();
    gate.arm(new AbortController().signal);
    gate.observe(stream('message_start'));
    gate.observe(assistant('sub', 'parent-call'));
    gate.observe(assistant('top'));
    const sub = ask(gate, 'sub');
    const top = ask(gate, 'top');
    await tick();
    expect(sub.settled).toBe(true);
    expect(top.settled).toBe(false);
    gate.observe(result);
    await tick();
    expect(top.settled).toBe(true);

    const quiet = new LimitToolGate();
    quiet.arm(new AbortController().signal);
    quiet.observe(assistant('plain'));
    const plain = ask(quiet, 'plain');
    await tick();
    expect(plain.settled).toBe(true);
  });

  it("forgets a finished turn's calls on disarm(): a session's next turn waits for its own response", async () => {
    const gate = new LimitToolGate();
    gate.arm(new AbortController().signal);
    gate.observe(assistant('t1'));
    gate.disarm();
    gate.arm(new AbortController().signal);
    gate.observe(stream('message_start'));
    const again = ask(gate, 't1');
    await tick();
    expect(again.settled).toBe(false);
    gate.observe(stream('message_stop'));
    await tick();
    expect(again.settled).toBe(false);
    gate.disarm();
  });

  it('releases waiting calls on disarm()', async () => {
    const gate = new LimitToolGate();
    gate.arm(new AbortController().signal);
    gate.observe(stream('message_start'));
    gate.observe(assistant('t1'));
    const answer = ask(gate, 't1');
    await tick();
    expect(answer.settled).toBe(false);
    gate.disarm();
    await tick();
    expect(answer).toEqual({ settled: true, value: {} });
  });
});
