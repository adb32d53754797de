import { describe, expect, it } from 'vitest';
import type { AgentBackend, AgentSession, ExecutionResult } from '../../../src/backends/contract/index.js';
import { sessionIsolation } from '../../../src/runner/attempt-runner.js';

/** A backend whose sessions log what the runner asks of them; `reset` can be held or made to fail. */
function recordingBackend() {
  const log: string[] = [];
  let created = 0;
  const held: Array<() => void> = [];
  const failingResets = new Set<string>();
  const failingSends = new Set<string>();
  const backend = {
    async createSession(): Promise<AgentSession> {
      created += 1;
      const name = `s${created}`;
      log.push(`create ${name}`);
      return {
        sessionId: name,
        async send(message: string) {
          log.push(`send ${name} ${message}`);
          if (failingSends.has(message)) throw new Error(`${message} failed`);
          return { response: `${name}: ${message}` } as unknown as ExecutionResult;
        },
        sendStreaming: () => {
          throw new Error('not used by the runner');
        },
        async reset() {
          log.push(`reset ${name}`);
          await new Promise<void>((resolve) => held.push(resolve));
          log.push(`reset done ${name}`);
          if (failingResets.has(name)) throw new Error('the CLI exited');
        },
        async interrupt() {},
        async close() {
          log.push(`close ${name}`);
        },
      };
    },
  } as unknown as AgentBackend;
  /** Lets every reset held so far finish. */
  const finishResets = () => {
    for (const resolve of held.splice(0)) resolve();
  };
  return { backend, log, finishResets, failingResets, failingSends };
}

const signal = new AbortController().signal;

describe('sessionIsolation', () => {
  it('clears a released session at once, and the next attempt waits for that clear', async () => {
    const { backend, log, finishResets } = recordingBackend();
    const runner = sessionIsolation(backend, { attempts: 2 });
    await runner.runSingle('first', { signal });
    // cleared ahead: the reset started when the first attempt ended, before the second asked
    expect(log).toEqual(['create s1', 'send s1 first', 'reset s1']);
    const second = runner.runSingle('second', { signal });
    await new Promise((resolve) => setImmediate(resolve));
    expect(log.at(-1)).toBe('reset s1');
    finishResets();
    await expect(second).resolves.toMatchObject({ response: 's1: second' });
    expect(log).toEqual(['create s1', 'send s1 first', 'reset s1', 'reset done s1', 'send s1 second']);
    await runner.close();
    // the last attempt started: its session is not cleared for nothing
    expect(log.slice(5)).toEqual(['close s1']);
  });

  it('clears ahead only as many sessions as attempts remain to start', async () => {
    const { backend, log, finishResets } = recordingBackend();
    const runner = sessionIsolation(backend, { attempts: 3 });
    const [a, b] = await Promise.all([
      runner.openConversation({ signal }),
      runner.openConversation({ signal }),
    ]);
    await a?.send('one');
    await b?.send('two');
    await a?.release();
    await b?.release();
    // one attempt remains: one session cleared ahead, the other left as it is
    expect(log.filter((line) => line.startsWith('reset'))).toEqual(['reset s1']);
    finishResets();
    await runner.runSingle('three', { signal });
    expect(log.filter((line) => line.startsWith('send'))).toEqual([
      'send s1 one',
      'send s2 two',
      'send s1 three',
    ]);
    await runner.close();
    expect(log.filter((line) => line.startsWith('reset'))).toEqual(['reset s1', 'reset done s1']);
  });

  it('a session whose clear fails is closed, and the attempt gets a new one', async () => {
    const { backend, log, finishResets, failingResets } = recordingBackend();
    failingResets.add('s1');
    const runner = sessionIsolation(backend, { attempts: 2 });
    await runner.runSingle('first', { signal });
    finishResets();
    await expect(runner.runSingle('second', { signal })).resolves.toMatchObject({ response: 's2: second' });
    expect(log).toEqual([
      'create s1',
      'send s1 first',
      'reset s1',
      'reset done s1',
      'close s1',
      'create s2',
      'send s2 second',
    ]);
    await runner.close();
  });

  it('a session whose turn failed is closed, never reused', async () => {
    const { backend, log, failingSends } = recordingBackend();
    failingSends.add('broken');
    const runner = sessionIsolation(backend, { attempts: 2 });
    await expect(runner.runSingle('broken', { signal })).rejects.toThrow('broken failed');
    await expect(runner.runSingle('fine', { signal })).resolves.toMatchObject({ response: 's2: fine' });
    expect(log).toEqual(['create s1', 'send s1 broken', 'close s1', 'create s2', 'send s2 fine']);
    await runner.close();
  });

  it('with no plan, every released session is cleared ahead', async () => {
    const { backend, log, finishResets } = recordingBackend();
    const runner = sessionIsolation(backend);
    await runner.runSingle('only', { signal });
    expect(log).toEqual(['create s1', 'send s1 only', 'reset s1']);
    finishResets();
    await runner.close();
  });
});
