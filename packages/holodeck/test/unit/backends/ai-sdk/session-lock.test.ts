import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AiSdkRuntime } from '../../../../src/backends/ai-sdk/ai-sdk-runtime.js';
import { AiSdkSession } from '../../../../src/backends/ai-sdk/ai-sdk-session.js';
import { sessionFilePath, sessionsDirectory } from '../../../../src/backends/ai-sdk/session-file-schema.js';
import { SessionLock, sessionLockPath } from '../../../../src/backends/ai-sdk/session-lock.js';
import { emptyTokenUsage, type SessionEvent } from '../../../../src/backends/contract/index.js';
import { AgentSessionError } from '../../../../src/errors.js';
import { loadedAgent } from './loaded-agent-fixture.js';

const ID = '0b6f3a52-3c41-4b4e-9d6c-1f2e3d4c5b6a';

async function folder(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'holodeck-lock-'));
}

async function writeLock(directory: string, holder: Record<string, unknown>): Promise<string> {
  await mkdir(sessionsDirectory(directory), { recursive: true });
  const file = sessionLockPath(directory, ID);
  await writeFile(
    file,
    JSON.stringify({ host: hostname(), since: '2026-01-02T03:04:05.000Z', token: 't', ...holder }),
  );
  return file;
}

/** A process id that was running a moment ago and is not any more. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  if (child.pid === undefined) throw new Error('no child pid');
  return child.pid;
}

describe('SessionLock', () => {
  it('writes who holds the session (mode 0600), refuses a second holder, and is gone once released', async () => {
    const directory = await folder();
    const lock = await SessionLock.acquire(directory, ID);
    const file = sessionLockPath(directory, ID);
    expect(lock.file).toBe(file);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      pid: process.pid,
      host: hostname(),
      since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      token: expect.any(String),
    });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const second = SessionLock.acquire(directory, ID);
    await expect(second).rejects.toThrow(AgentSessionError);
    await expect(second).rejects.toThrow(
      new RegExp(
        `^session "${ID}" is open in another chat: this process \\(${process.pid}\\) already has it open in another session \\(since .+\\)\\. Two chats on one session would overwrite each other's turns; end the other chat first\\. If no such chat is running, delete ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`,
      ),
    );
    expect(await lock.lost()).toBeUndefined();
    await lock.release();
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
    await (await SessionLock.acquire(directory, ID)).release();
  });

  it('names the running process that holds it', async () => {
    const directory = await folder();
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      const file = await writeLock(directory, { pid: sleeper.pid });
      await expect(SessionLock.acquire(directory, ID)).rejects.toThrow(
        `session "${ID}" is open in another chat: process ${sleeper.pid} holds it (since 2026-01-02T03:04:05.000Z). Two chats on one session would overwrite each other's turns; end the other chat first. If no such chat is running, delete ${file}`,
      );
    } finally {
      sleeper.kill();
    }
  });

  it('takes over the lock of a process that is gone, and one whose file is not a lock', async () => {
    const directory = await folder();
    const file = await writeLock(directory, { pid: await deadPid(), token: 'old' });
    const lock = await SessionLock.acquire(directory, ID);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
    await writeFile(file, 'not json');
    await (await SessionLock.acquire(directory, ID)).release();
  });

  it('takes over a lock left by an earlier process with this process id, not one this process holds', async () => {
    const directory = await folder();
    await writeLock(directory, { pid: process.pid, token: 'from-an-earlier-boot' });
    await (await SessionLock.acquire(directory, ID)).release();
  });

  it('never presumes a lock from another host stale', async () => {
    const directory = await folder();
    await writeLock(directory, { pid: 4242, host: 'build-box-7' });
    await expect(SessionLock.acquire(directory, ID)).rejects.toThrow(
      `session "${ID}" is open in another chat: process 4242 on build-box-7 holds it (since 2026-01-02T03:04:05.000Z); HoloDeck cannot tell from here whether that process still runs.`,
    );
  });

  it('knows when it was lost, and then leaves the new holder its file', async () => {
    const directory = await folder();
    const lock = await SessionLock.acquire(directory, ID);
    const file = await writeLock(directory, { pid: 4343, token: 'newer' });
    expect(await lock.lost()).toBe(`process 4343 took over its lock ${file}`);
    await lock.release();
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ token: 'newer' });
  });

  it('a process that exits without releasing its lock removes it; one killed leaves it, stale', async () => {
    const directory = await folder();
    const script = path.join(directory, 'hold.mts');
    await writeFile(
      script,
      [
        `import { SessionLock } from ${JSON.stringify(fileURLToPath(new URL('../../../../src/backends/ai-sdk/session-lock.ts', import.meta.url)))};`,
        `await SessionLock.acquire(${JSON.stringify(directory)}, ${JSON.stringify(ID)});`,
        "if (process.argv[2] === 'kill') process.kill(process.pid, 'SIGKILL');",
        'process.exit(7);',
      ].join('\n'),
    );
    const run = async (how: string) => {
      const child = spawn(process.execPath, ['--import', 'tsx', script, how], { stdio: 'inherit' });
      return new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    };
    expect(await run('exit')).toBe(7);
    await expect(stat(sessionLockPath(directory, ID))).rejects.toThrow(/ENOENT/);
    expect(await run('kill')).toBeNull();
    await stat(sessionLockPath(directory, ID));
    await (await SessionLock.acquire(directory, ID)).release();
  }, 30_000);

  it('many acquirers at once over a stale lock: exactly one wins', async () => {
    const directory = await folder();
    await writeLock(directory, { pid: await deadPid(), token: 'stale' });
    const attempts = await Promise.allSettled(
      Array.from({ length: 8 }, () => SessionLock.acquire(directory, ID)),
    );
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1);
    for (const attempt of attempts) if (attempt.status === 'fulfilled') await attempt.value.release();
  });
});

describe('AiSdkSession and its lock', () => {
  const runtime: AiSdkRuntime = {
    model: 'gpt-4o',
    toolNames: [],
    openGovernance: async () => undefined,
    async *runTurn(input) {
      yield { type: 'text-delta', text: 'ok' };
      return {
        result: {
          response: `reply: ${input.message}`,
          tool_calls: [],
          tool_results: [],
          token_usage: emptyTokenUsage(),
          num_turns: 1,
          is_error: false,
          cost_usd: null,
          duration_ms: 1,
        },
        messages: [
          { role: 'user', content: input.message },
          { role: 'assistant', content: `reply: ${input.message}` },
        ],
        aborted: false,
      };
    },
    close: async () => {},
  };
  const collect = async (events: AsyncIterable<SessionEvent>) => {
    const all: SessionEvent[] = [];
    for await (const event of events) all.push(event);
    return all;
  };

  it('locks a new conversation at its first save, stops saving once the lock is lost, and unlocks on close', async () => {
    const directory = await folder();
    const agent = { ...loadedAgent(), directory, file: path.join(directory, 'agent.yaml') };
    const session = new AiSdkSession({ agent, runtime, warnings: [] });
    await session.send('one');
    const id = session.sessionId ?? '';
    const lockFile = sessionLockPath(directory, id);
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toMatchObject({ pid: process.pid });

    // Another chat took the session over (here: its lock was replaced).
    await writeFile(lockFile, JSON.stringify({ pid: 4444, host: hostname(), since: 'now', token: 'other' }));
    const saved = await readFile(sessionFilePath(directory, id), 'utf8');
    const events = await collect(session.sendStreaming('two'));
    expect(events.find((event) => event.type === 'error')).toEqual({
      type: 'error',
      code: 'session-not-saved',
      message: `this turn was not saved to ${sessionFilePath(directory, id)}: process 4444 took over its lock ${lockFile}, so the other chat's turns are kept there and this one's are not (session "${id}")`,
    });
    expect(events.at(-1)).toMatchObject({ type: 'finish', result: { response: 'reply: two' } });
    expect(await readFile(sessionFilePath(directory, id), 'utf8')).toBe(saved);
    await session.close();
    // Not this session's lock any more: left to its holder.
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toMatchObject({ token: 'other' });
  });

  it('reset() and close() release the lock', async () => {
    const directory = await folder();
    const agent = { ...loadedAgent(), directory, file: path.join(directory, 'agent.yaml') };
    const session = new AiSdkSession({ agent, runtime, warnings: [] });
    await session.send('one');
    const first = sessionLockPath(directory, session.sessionId ?? '');
    await session.reset();
    await expect(stat(first)).rejects.toThrow(/ENOENT/);
    await session.send('two');
    const second = sessionLockPath(directory, session.sessionId ?? '');
    await stat(second);
    await session.close();
    await expect(stat(second)).rejects.toThrow(/ENOENT/);
  });
});
