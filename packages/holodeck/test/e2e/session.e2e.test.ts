import { reply, waitUntil } from '@holodeck/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { ClaudeBackend } from '../../src/backends/claude/claude-backend.js';
import { ClaudeSession } from '../../src/backends/claude/claude-session.js';
import type { SessionEvent } from '../../src/backends/contract/index.js';
import { AgentSessionError } from '../../src/errors.js';
import { createE2eAgent, type E2eAgent } from './support/e2e-agent.js';
import { useFakeModel } from './support/use-fake-model.js';

const fake = useFakeModel();
let agent: E2eAgent;
beforeAll(() => {
  agent = createE2eAgent(fake().url);
});

async function backendFor() {
  const backend = new ClaudeBackend(await agent.load());
  await backend.initialize();
  return backend;
}

function processIdOf(session: unknown): number {
  if (!(session instanceof ClaudeSession) || session.processId === undefined)
    throw new Error('no CLI process');
  return session.processId;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const historyOf = (index: number) => JSON.stringify(fake().requests[index]?.messagesBody?.messages);

describe('sessions: one CLI process per conversation', () => {
  it('streams text deltas and keeps history across turns in the same process', async () => {
    fake().script(reply('Hello Ada, nice to meet you.'), reply('Your name is Ada.'));
    const backend = await backendFor();
    const session = await backend.createSession();
    const pid = processIdOf(session);

    const events: SessionEvent[] = [];
    for await (const event of session.sendStreaming('My name is Ada.')) events.push(event);
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('session-start');
    expect(types.at(-1)).toBe('finish');
    const deltas = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Hello Ada, nice to meet you.');

    expect(isAlive(pid)).toBe(true);
    const second = await session.send('What is my name?');
    expect(second.response).toBe('Your name is Ada.');
    expect(processIdOf(session)).toBe(pid);
    expect(historyOf(1)).toContain('My name is Ada.');
    expect(historyOf(1)).toContain('Hello Ada, nice to meet you.');
    expect(session.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await backend.teardown();
    expect(isAlive(pid)).toBe(false);
  });

  it('resumes a saved session in a new process', async () => {
    fake().script(reply('Noted: the code word is heron.'), reply('The code word is heron.'));
    const first = await backendFor();
    const session = await first.createSession();
    await session.send('Remember the code word heron.');
    const sessionId = session.sessionId;
    await first.teardown();

    const second = await backendFor();
    const resumed = await second.createSession({ resume: sessionId });
    const result = await resumed.send('What is the code word?');
    await second.teardown();
    expect(result.response).toBe('The code word is heron.');
    expect(historyOf(1)).toContain('Remember the code word heron.');
    expect(historyOf(1)).toContain('Noted: the code word is heron.');
  });

  it('fails promptly with AgentSessionError when the CLI process dies mid-turn', async () => {
    fake().script(reply('too late', { delayMs: 20_000 }));
    const backend = await backendFor();
    const session = await backend.createSession();
    const pending = session.send('slow question');
    await waitUntil(() => fake().requests.length > 0, {
      timeoutMs: 20_000,
      what: 'the request to reach the fake model',
    });
    process.kill(processIdOf(session), 'SIGKILL');

    await expect(pending).rejects.toThrow(AgentSessionError);
    await expect(pending).rejects.toThrow(/the claude process was killed by SIGKILL/);
    await expect(session.send('again')).rejects.toThrow(AgentSessionError);
    await backend.teardown();
  });
});
