import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Hands out store file paths in fresh temp folders and removes them all at `cleanup()`. */
export function createTempStoreFiles(): { next(): string; cleanup(): void } {
  const folders: string[] = [];
  return {
    next() {
      const folder = mkdtempSync(path.join(tmpdir(), 'novarch-store-'));
      folders.push(folder);
      return path.join(folder, 'novarch.db');
    },
    cleanup() {
      for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
    },
  };
}
