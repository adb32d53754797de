import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { isProcessRunning, takeOverStaleLock } from '../../../lock-files.js';

function holderOf(lockFile: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
    return Number.isInteger(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs `work` holding an exclusive lock file (created with O_EXCL, holding the pid). A lock
 * whose process is gone is stale and taken over (`takeOverStaleLock`); a live one makes this call wait (polling),
 * telling `onWait` once who holds it.
 */
export async function withFileLock<T>(
  lockFile: string,
  onWait: (holder: number | undefined) => void,
  work: () => Promise<T>,
  pollMs = 100,
): Promise<T> {
  let told = false;
  for (;;) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = holderOf(lockFile);
      if (holder !== undefined && !isProcessRunning(holder)) {
        await takeOverStaleLock(lockFile, async (moved) => holderOf(moved) === holder);
        continue;
      }
      if (!told) {
        told = true;
        onWait(holder);
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lockFile, { force: true });
  }
}
