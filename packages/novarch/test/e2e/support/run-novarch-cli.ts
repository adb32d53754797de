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

/** An agent key (`nva_`) or operator token (`nvo_`) as `novarch keys|operators create` shows it. */
const SECRET = /^nv[ao]_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/;

/**
 * Runs `novarch keys|operators create …args` and returns the secret it shows once (the first line
 * of its output); a creation that does not exit 0, or prints no such secret, throws with its output.
 */
export async function createSecret(args: string[]): Promise<string> {
  const run = await runNovarch(args);
  const secret = run.stdout.split('\n')[0] ?? '';
  if (run.code !== 0 || !SECRET.test(secret))
    throw new Error(`novarch ${args.join(' ')} exited ${run.code} without a secret:\n${run.stderr}`);
  return secret;
}
