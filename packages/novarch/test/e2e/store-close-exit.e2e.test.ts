import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempStoreFiles } from '../store/temp-store-file.js';

// Issue 14 "Speed": the store's background checkpoint worker (test/unit/store/
// background-checkpoints.test.ts), seen from a program of its own.

const files = createTempStoreFiles();
afterAll(() => files.cleanup());

describe('a program on a SQLite store with background checkpoints', () => {
  /**
   * Proves the worker neither keeps a finished program alive nor cuts `await store.close()` short:
   * a program that opens, writes and closes the store prints after the close and exits 0 (before
   * the fix it exited 13, "unsettled top-level await", leaving the close unfinished).
   */
  it('lets a program close the store and exit', async () => {
    const file = files.next();
    const script = path.join(path.dirname(file), 'close-and-exit.mts');
    const index = path.resolve(import.meta.dirname, '../../src/index.ts');
    writeFileSync(
      script,
      [
        `import { openSqliteStore } from ${JSON.stringify(index)};`,
        `const store = await openSqliteStore(${JSON.stringify(file)});`,
        `await store.createSession({ tenantId: 't', teamId: 'x', agentId: 'a' }, 5);`,
        'await store.close();',
        "process.stdout.write('closed\\n');",
        '',
      ].join('\n'),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: 'closed\n', stderr: '' });
  });
});
