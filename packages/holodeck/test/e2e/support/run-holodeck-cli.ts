import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The committed `holodeck` launcher. */
export const HOLODECK_BIN = fileURLToPath(new URL('../../../bin/holodeck.js', import.meta.url));

export interface CliOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `holodeck` bin as a user would, with exactly the given environment. */
export function runHolodeckCli(
  args: string[],
  env: Record<string, string>,
  stdin = '',
  cwd?: string,
): Promise<CliOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HOLODECK_BIN, ...args], {
      env: { NO_COLOR: '1', ...env },
      stdio: 'pipe',
      ...(cwd ? { cwd } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
