import { mkdir, rm, stat } from 'node:fs/promises';

// What the lock files of HoloDeck (the embedded index's ingest lock, a saved AI SDK session's
// lock) share: telling a live holder from a dead one, and taking a stale lock over safely.

/** Whether process `pid` of this machine is running (EPERM: it is, under another user). */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

/** A takeover mutex left by a process that died holding it is cleared after this long. */
const STALE_TAKEOVER_MS = 10_000;

/**
 * Removes a lock found stale, safely against other processes doing the same at once. The removal
 * happens under a takeover mutex (`<file>.takeover`, made with mkdir, which only one process wins),
 * and only when `isStillStale(file)` still holds inside it. Nobody else can replace an existing
 * lock file (new locks are written with the exclusive flag), so the check and the removal see the
 * same file. Moving the file aside and putting back a live one, as before, could lose a lock
 * written in between: two acquirers then both held it. A process that loses the mutex race
 * returns at once and retries its own acquisition.
 */
export async function takeOverStaleLock(
  file: string,
  isStillStale: (lockFile: string) => Promise<boolean>,
): Promise<void> {
  const mutex = `${file}.takeover`;
  try {
    await mkdir(mutex);
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
    const since = await stat(mutex).then(
      (info) => info.mtimeMs,
      () => undefined,
    );
    if (since !== undefined && Date.now() - since > STALE_TAKEOVER_MS)
      await rm(mutex, { recursive: true, force: true });
    return;
  }
  try {
    if (await isStillStale(file)) await rm(file, { force: true });
  } finally {
    await rm(mutex, { recursive: true, force: true });
  }
}
