import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chatMessages, chatReply, type FakeOpenAIServer, startFakeOpenAI } from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createE2eAgent, type E2eAgent, TEST_API_KEY } from './support/e2e-agent.js';
import { HOLODECK_BIN, runHolodeckCli } from './support/run-holodeck-cli.js';

let fake: FakeOpenAIServer;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterEach(() => {
  try {
    fake.assertComplete();
  } finally {
    fake.reset();
  }
});
afterAll(() => fake.close());

function openaiAgent(): E2eAgent {
  return createE2eAgent(fake.url, {
    config: { model: { provider: 'openai', name: 'gpt-4o', endpoint: fake.baseUrl } },
    env: { OPENAI_API_KEY: TEST_API_KEY },
  });
}

/** A saved session with one turn; returns its id. */
async function savedSession(agent: E2eAgent): Promise<string> {
  fake.script(chatReply('Noted: heron.'));
  const chat = await runHolodeckCli(['chat', agent.file], agent.env, 'The code word is heron.\n/exit\n');
  expect(chat.code).toBe(0);
  const id = /--resume (\S+)\)/.exec(chat.stderr)?.[1];
  if (!id) throw new Error(`no session id in: ${chat.stderr}`);
  return id;
}

interface OpenChat {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `holodeck chat --resume <id>` left running with its stdin open, once it has the session open. */
async function openChat(agent: E2eAgent, sessionId: string): Promise<OpenChat> {
  const child = spawn(process.execPath, [HOLODECK_BIN, 'chat', agent.file, '--resume', sessionId], {
    env: { NO_COLOR: '1', ...agent.env },
    stdio: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const deadline = Date.now() + 30_000;
  // The chat says so once the backend opened (and locked) the session.
  while (!stderr.includes('Chatting with')) {
    if (Date.now() > deadline) throw new Error(`the chat did not start: ${stderr}`);
    if (child.exitCode !== null) throw new Error(`the chat ended: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

const lockOf = (agent: E2eAgent, id: string) =>
  path.join(agent.directory, '.holodeck', 'sessions', `${id}.lock`);
const savedMessages = (agent: E2eAgent, id: string): { content: unknown }[] =>
  JSON.parse(readFileSync(path.join(agent.directory, '.holodeck', 'sessions', `${id}.json`), 'utf8'))
    .messages;

describe('holodeck chat --resume of one AI SDK session in two processes', () => {
  it('the second is refused while the first has it open, naming the session and the process; then it may resume', async () => {
    const agent = openaiAgent();
    const id = await savedSession(agent);
    const first = await openChat(agent, id);
    const pid = first.child.pid;
    expect(JSON.parse(readFileSync(lockOf(agent, id), 'utf8'))).toMatchObject({ pid });

    const refusal = `error session "${id}" is open in another chat: process ${pid} holds it (since `;
    const second = await runHolodeckCli(
      ['chat', agent.file, '--resume', id],
      agent.env,
      'I am the second.\n',
    );
    expect(second.code).toBe(3);
    expect(second.stderr).toContain(refusal);
    expect(second.stderr).toContain(
      `Two chats on one session would overwrite each other's turns; end the other chat first. If no such chat is running, delete ${lockOf(agent, id)}`,
    );
    const oneShot = await runHolodeckCli(['chat', agent.file, '--resume', id, '-p', 'Me too.'], agent.env);
    expect(oneShot.code).toBe(3);
    expect(oneShot.stderr).toContain(refusal);
    expect(fake.requests).toHaveLength(1);

    // The first chat goes on, saves its turn, and lets the session go as it ends.
    fake.script(chatReply('Still heron.'));
    first.child.stdin.end('What was the code word?\n/exit\n');
    expect(await first.exited).toBe(0);
    expect(first.stdout()).toBe('Still heron.\n');
    expect(existsSync(lockOf(agent, id))).toBe(false);

    fake.script(chatReply('Heron, twice asked.'));
    const later = await runHolodeckCli(['chat', agent.file, '--resume', id, '-p', 'Once more?'], agent.env);
    expect(later).toMatchObject({ code: 0, stdout: 'Heron, twice asked.\n' });
    // Nothing was lost: the history has both earlier chats' turns.
    const third = fake.requests[2];
    if (!third) throw new Error(`the fake model received ${fake.requests.length} requests, not 3`);
    expect(chatMessages(third).map((message) => message.content)).toEqual([
      expect.any(String),
      'The code word is heron.',
      'Noted: heron.',
      'What was the code word?',
      'Still heron.',
      'Once more?',
    ]);
    expect(savedMessages(agent, id)).toHaveLength(6);
    expect(existsSync(lockOf(agent, id))).toBe(false);
  });

  it('a lock left by a chat that was killed is taken over', async () => {
    const agent = openaiAgent();
    const id = await savedSession(agent);
    const killed = await openChat(agent, id);
    killed.child.kill('SIGKILL');
    await killed.exited;
    // SIGKILL leaves the lock behind, naming a process that is gone.
    expect(JSON.parse(readFileSync(lockOf(agent, id), 'utf8'))).toMatchObject({ pid: killed.child.pid });

    fake.script(chatReply('Heron.'));
    const resumed = await runHolodeckCli(
      ['chat', agent.file, '--resume', id],
      agent.env,
      'The word?\n/exit\n',
    );
    expect(resumed).toMatchObject({ code: 0, stdout: 'Heron.\n' });
    expect(savedMessages(agent, id)).toHaveLength(4);
    expect(existsSync(lockOf(agent, id))).toBe(false);
  });

  it('Ctrl+C during a turn ends the chat and lets the session go', async () => {
    const agent = openaiAgent();
    const id = await savedSession(agent);
    const chat = await openChat(agent, id);
    fake.script(chatReply('never read', { delayMs: 20_000 }));
    chat.child.stdin.write('A slow question\n');
    const deadline = Date.now() + 20_000;
    while (fake.requests.length < 2) {
      if (Date.now() > deadline) throw new Error('the turn never reached the fake model');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The session closes while its turn runs: the lock stays for the turn's save, then goes.
    chat.child.kill('SIGINT');
    expect(await chat.exited).toBe(130);
    expect(existsSync(lockOf(agent, id))).toBe(false);
    fake.script(chatReply('Heron.'));
    const resumed = await runHolodeckCli(['chat', agent.file, '--resume', id, '-p', 'The word?'], agent.env);
    expect(resumed).toMatchObject({ code: 0, stdout: 'Heron.\n' });
  });
});
