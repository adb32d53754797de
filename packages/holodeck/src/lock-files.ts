import { randomUUID } from 'node:crypto';
import { link, rename, rm } from 'node:fs/promises';

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

/**
 * Removes a lock found stale, safely against other processes doing the same at once: the file is
 * moved aside first, so only one remover gets it, and when the lock moved turns out not to be the
 * stale one (`isStillStale(movedFile)` false: written in between by a process that just took the
 * lock) it is put back, unless a newer one took its place. Deleting the file by its name instead
 * could delete the lock another process took a moment before, and both would then hold it.
 */
export async function takeOverStaleLock(
  file: string,
  isStillStale: (movedFile: string) => Promise<boolean>,
): Promise<void> {
  const aside = `${file}.${process.pid}.${randomUUID()}.stale`;
  try {
    await rename(file, aside);
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return;
    throw error;
  }
  if (!(await isStillStale(aside))) {
    try {
      // Put back a live lock, unless a newer one is there: never overwrite (link fails then).
      await link(aside, file);
    } catch {
      // a newer lock took its place, or linking is unsupported here: its holder notices later
    }
  }
  await rm(aside, { force: true });
}
