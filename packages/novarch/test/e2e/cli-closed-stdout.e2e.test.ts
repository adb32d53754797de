import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/novarch.js', import.meta.url));

// `novarch … | head`: the reader closes the pipe before novarch has written everything. That is
// not an error: no EPIPE stack trace, and the exit code is the command's.

describe('novarch with its stdout closed early', () => {
  it('prints no stack trace and exits 0', async () => {
    const child = spawn(process.execPath, [BIN, 'rules', 'test', '--help'], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reading end goes away before the command writes its help.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exit) => resolve(exit)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
