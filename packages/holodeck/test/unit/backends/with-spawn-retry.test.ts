import { describe, expect, it } from 'vitest';
import { withSpawnRetry } from '../../../src/backends/claude/with-spawn-retry.js';
import { AgentSessionError } from '../../../src/errors.js';

const notStarted = () => new AgentSessionError('spawn failed', { phase: 'spawn' });
const started = () => new AgentSessionError('died mid-run', { phase: 'run' });

describe('withSpawnRetry', () => {
  it('retries a failed spawn up to 3 attempts with growing backoff', async () => {
    const sleeps: number[] = [];
    let calls = 0;
    const value = await withSpawnRetry(
      async () => {
        calls++;
        if (calls < 3) throw notStarted();
        return 'ok';
      },
      async (ms) => {
        sleeps.push(ms);
      },
    );
    expect(value).toBe('ok');
    expect(sleeps).toEqual([250, 500]);
  });

  it('gives up after 3 attempts', async () => {
    let calls = 0;
    await expect(
      withSpawnRetry(
        async () => {
          calls++;
          throw notStarted();
        },
        async () => {},
      ),
    ).rejects.toThrow('spawn failed');
    expect(calls).toBe(3);
  });

  it('never repeats a run that started', async () => {
    let calls = 0;
    await expect(
      withSpawnRetry(
        async () => {
          calls++;
          throw started();
        },
        async () => {},
      ),
    ).rejects.toThrow('died mid-run');
    expect(calls).toBe(1);
  });
});
