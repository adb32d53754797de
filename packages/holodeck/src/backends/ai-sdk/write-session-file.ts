import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { type SessionFile, sessionFilePath, sessionsDirectory } from './session-file-schema.js';

/**
 * Saves a session atomically: written to a temporary file in the same folder (mode 0600, since a
 * conversation may hold personal data), then renamed over the old one, so a crash mid-write never
 * leaves a half-written session. The folder is created (mode 0700) when missing.
 */
export async function writeSessionFile(agentDirectory: string, session: SessionFile): Promise<void> {
  await mkdir(sessionsDirectory(agentDirectory), { recursive: true, mode: 0o700 });
  const file = sessionFilePath(agentDirectory, session.sessionId);
  const temporary = `${file}.${process.pid}.${randomUUID()}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(session, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
