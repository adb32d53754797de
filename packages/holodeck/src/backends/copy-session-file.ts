import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Copies a session's saved state from `from` to `to` (mode 0600), atomically: a reader of `to`
 * (another instance resuming the session) never sees half a file. False when `from` does not exist.
 */
export async function copySessionFile(from: string, to: string): Promise<boolean> {
  await mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
  const temporary = `${to}.${process.pid}.${Date.now()}.tmp`;
  try {
    await copyFile(from, temporary);
  } catch (error) {
    await rm(temporary, { force: true });
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return false;
    throw error;
  }
  await rename(temporary, to);
  return true;
}
