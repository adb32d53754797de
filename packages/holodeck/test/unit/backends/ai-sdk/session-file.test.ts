import { mkdir, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { readSessionFile } from '../../../../src/backends/ai-sdk/read-session-file.js';
import {
  type SessionFile,
  sessionFilePath,
  sessionsDirectory,
} from '../../../../src/backends/ai-sdk/session-file-schema.js';
import { writeSessionFile } from '../../../../src/backends/ai-sdk/write-session-file.js';
import { AgentSessionError } from '../../../../src/errors.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const ID = '0b6f3c1e-2d4a-4f7e-9a51-3c8e2b7d9f10';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'holodeck-sessions-'));
});

async function fixture(): Promise<SessionFile> {
  await mkdir(sessionsDirectory(directory), { recursive: true });
  await writeFile(sessionFilePath(directory, ID), await readFile(path.join(FIXTURES, 'session-v1.json')));
  return readSessionFile(directory, ID);
}

async function writeRaw(content: string, id = ID): Promise<string> {
  await mkdir(sessionsDirectory(directory), { recursive: true });
  const file = sessionFilePath(directory, id);
  await writeFile(file, content);
  return file;
}

describe('session files', () => {
  it('reads every stored format shipped (schemaVersion 1)', async () => {
    const session = await fixture();
    expect(session.messages).toHaveLength(4);
    expect(session.messages[1]).toEqual({
      role: 'assistant',
      content: 'Let me look that up.',
      toolCalls: [{ id: 'call_1', name: 'lookup_order', arguments: { order_id: 'A-1001' } }],
    });
  });

  it('writes atomically under .holodeck/sessions with mode 0600 and reads back what it wrote', async () => {
    const session = await fixture();
    const updated = {
      ...session,
      messages: [...session.messages, { role: 'user' as const, content: 'Thanks!' }],
    };
    await writeSessionFile(directory, updated);
    const file = sessionFilePath(directory, ID);
    expect(file).toBe(path.join(directory, '.holodeck', 'sessions', `${ID}.json`));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(sessionsDirectory(directory))).toEqual([`${ID}.json`]);
    expect(await readSessionFile(directory, ID)).toEqual(updated);
  });

  it('an unknown id says so and where it looked', async () => {
    const missing = '11111111-2222-3333-4444-555555555555';
    const attempt = readSessionFile(directory, missing);
    await expect(attempt).rejects.toThrow(AgentSessionError);
    await expect(attempt).rejects.toThrow(
      `no saved session "${missing}" for this agent: looked for ${path.join(directory, '.holodeck', 'sessions', `${missing}.json`)}. Sessions are saved next to agent.yaml, in .holodeck/sessions/`,
    );
  });

  it('refuses an id that could leave the sessions folder', async () => {
    await expect(readSessionFile(directory, '../../etc/passwd')).rejects.toThrow(
      '"../../etc/passwd" is not a session id: ids are letters, digits, "-" and "_" (as printed when a chat ends)',
    );
  });

  it('says what is wrong with a damaged file', async () => {
    const file = await writeRaw('{"schemaVersion": 1,');
    await expect(readSessionFile(directory, ID)).rejects.toThrow(
      new RegExp(`^session file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON \\(`),
    );
    const original = JSON.parse(await readFile(path.join(FIXTURES, 'session-v1.json'), 'utf8'));
    await writeRaw(JSON.stringify({ ...original, messages: [{ role: 'robot', content: 'x' }] }));
    await expect(readSessionFile(directory, ID)).rejects.toThrow(
      `session file ${file} is not a valid HoloDeck session: messages.0.role: Invalid discriminator value. Expected 'user' | 'assistant' | 'tool'`,
    );
    await writeRaw(JSON.stringify({ ...original, schemaVersion: 2 }));
    await expect(readSessionFile(directory, ID)).rejects.toThrow(
      `session file ${file} has schemaVersion 2, written by a newer HoloDeck; this one reads schemaVersion 1. Upgrade HoloDeck to resume it`,
    );
    await writeRaw(JSON.stringify({ ...original, sessionId: 'another-session' }));
    await expect(readSessionFile(directory, ID)).rejects.toThrow(
      `session file ${file} holds session "another-session", not "${ID}"`,
    );
  });
});
