import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AiSdkRuntime, TurnInput, TurnOutcome } from '../../../../src/backends/ai-sdk/ai-sdk-runtime.js';
import { AiSdkSession } from '../../../../src/backends/ai-sdk/ai-sdk-session.js';
import { sessionFilePath } from '../../../../src/backends/ai-sdk/session-file-schema.js';
import {
  type ExecutionResult,
  emptyTokenUsage,
  type SessionEvent,
} from '../../../../src/backends/contract/index.js';
import { AgentSessionError } from '../../../../src/errors.js';
import { loadedAgent } from './loaded-agent-fixture.js';

function result(response: string, extra: Partial<ExecutionResult> = {}): ExecutionResult {
  return {
    response,
    tool_calls: [],
    tool_results: [],
    token_usage: emptyTokenUsage(),
    num_turns: 1,
    is_error: false,
    cost_usd: null,
    duration_ms: 1,
    ...extra,
  };
}

/** A runtime that answers every message with `reply: <message>`, or waits for the abort when told to. */
function stubRuntime(options: { hang?: boolean; fail?: string } = {}) {
  const inputs: TurnInput[] = [];
  const runtime: AiSdkRuntime = {
    model: 'gpt-4o',
    toolNames: ['lookup_order'],
    openGovernance: async () => undefined,
    async *runTurn(input): AsyncGenerator<SessionEvent, TurnOutcome> {
      inputs.push({ ...input, history: [...input.history] });
      yield { type: 'text-delta', text: 'reply' };
      if (options.hang) {
        await new Promise((resolve) => input.signal?.addEventListener('abort', resolve, { once: true }));
        const reason = input.signal?.reason instanceof Error ? input.signal.reason.message : 'aborted';
        return {
          result: result('', { is_error: true, error_reason: `the run was stopped: ${reason}` }),
          messages: [{ role: 'user', content: input.message }],
          aborted: true,
        };
      }
      const failed = options.fail ? { is_error: true, error_reason: options.fail } : {};
      return {
        result: result(`reply: ${input.message}`, { session_id: input.sessionId ?? '', ...failed }),
        messages: [
          { role: 'user', content: input.message },
          { role: 'assistant', content: `reply: ${input.message}` },
        ],
        aborted: false,
      };
    },
    close: async () => {},
  };
  return { runtime, inputs };
}

async function agentIn(directory?: string) {
  const dir = directory ?? (await mkdtemp(path.join(os.tmpdir(), 'holodeck-session-')));
  return { ...loadedAgent(), directory: dir, file: path.join(dir, 'agent.yaml') };
}

async function collect(events: AsyncIterable<SessionEvent>): Promise<SessionEvent[]> {
  const collected: SessionEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

describe('AiSdkSession', () => {
  it('announces itself once, keeps the history, and saves it after each turn', async () => {
    const agent = await agentIn();
    const { runtime, inputs } = stubRuntime();
    const warnings = [{ code: 'claude-block-ignored' as const, message: 'ignored' }];
    const session = new AiSdkSession({ agent, runtime, warnings });
    expect(session.sessionId).toBeUndefined();

    const first = await collect(session.sendStreaming('one'));
    const id = session.sessionId ?? '';
    expect(first).toEqual([
      { type: 'session-start', sessionId: id, model: 'gpt-4o', tools: ['lookup_order'], warnings },
      { type: 'text-delta', text: 'reply' },
      { type: 'finish', result: expect.objectContaining({ response: 'reply: one', session_id: id }) },
    ]);
    expect((await session.send('two')).response).toBe('reply: two');
    expect(inputs[1]?.history).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'reply: one' },
    ]);
    const saved = JSON.parse(await readFile(sessionFilePath(agent.directory, id), 'utf8'));
    expect(saved).toMatchObject({ schemaVersion: 1, sessionId: id, agent: 'unit-agent', provider: 'openai' });
    expect(saved.messages).toHaveLength(4);
  });

  it('a failed turn reports its reason in band before finish', async () => {
    const { runtime } = stubRuntime({ fail: 'the model API answered HTTP 400: bad' });
    const session = new AiSdkSession({ agent: await agentIn(), runtime, warnings: [] });
    const events = await collect(session.sendStreaming('hi'));
    expect(events.map((event) => event.type)).toEqual(['session-start', 'text-delta', 'error', 'finish']);
    expect(events[2]).toEqual({
      type: 'error',
      code: 'run-failed',
      message: 'the model API answered HTTP 400: bad',
    });
  });

  it('refuses a second turn while one runs, and any turn once closed', async () => {
    const { runtime } = stubRuntime({ hang: true });
    const session = new AiSdkSession({ agent: await agentIn(), runtime, warnings: [] });
    const turn = collect(session.sendStreaming('first'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(session.send('second')).rejects.toThrow(
      new AgentSessionError('a turn is already in progress; wait for its finish event'),
    );
    await session.close();
    const events = await turn;
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      result: { is_error: true, error_reason: 'the run was stopped: the session was closed' },
    });
    await expect(session.send('third')).rejects.toThrow('the session is closed');
  });

  it('reset() drops the history and takes a new id', async () => {
    const { runtime, inputs } = stubRuntime();
    const session = new AiSdkSession({ agent: await agentIn(), runtime, warnings: [] });
    await session.send('one');
    const before = session.sessionId;
    await session.reset();
    expect(session.sessionId).toBeUndefined();
    await session.send('two');
    expect(session.sessionId).not.toBe(before);
    expect(inputs[1]?.history).toEqual([]);
  });

  it('a turn whose session cannot be saved keeps its result and says why in band', async () => {
    const agent = await agentIn();
    // A file where the .holodeck folder should be: the save fails, even for root.
    await writeFile(path.join(agent.directory, '.holodeck'), '');
    const { runtime } = stubRuntime();
    const session = new AiSdkSession({ agent, runtime, warnings: [] });
    const events = await collect(session.sendStreaming('hi'));
    const file = sessionFilePath(agent.directory, session.sessionId ?? '');
    expect(events.slice(-2)).toEqual([
      {
        type: 'error',
        code: 'session-not-saved',
        message: `the session could not be saved to ${file} (ENOTDIR: not a directory, mkdir '${path.dirname(file)}'), so it cannot be resumed later`,
      },
      { type: 'finish', result: expect.objectContaining({ response: 'reply: hi', is_error: false }) },
    ]);
  });
});
