import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../../bin/novarch.js', import.meta.url));

/** What a run of the `novarch` bin printed, and its exit code. */
export interface NovarchRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `novarch` bin (built dist/) with NO_COLOR and USER=ana, unless `env` says otherwise
 * (pass the store in `NOVARCH_STORE`).
 */
export function runNovarch(args: string[], env: Record<string, string> = {}): Promise<NovarchRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, NO_COLOR: '1', USER: 'ana', ...env } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
