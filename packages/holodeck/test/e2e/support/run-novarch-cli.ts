import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The novarch CLI of this repository (its bin). */
export const NOVARCH_BIN = fileURLToPath(new URL('../../../../novarch/bin/novarch.js', import.meta.url));

/**
 * Runs the real `novarch` CLI as an operator would (its own process, only PATH and NO_COLOR in
 * its environment) and resolves with its exit code and its stdout and stderr together.
 */
export function runNovarchCli(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [NOVARCH_BIN, ...args], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}
