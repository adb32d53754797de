import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { waitUntil } from '@holodeck/testkit';

const BIN = fileURLToPath(new URL('../../../bin/novarch.js', import.meta.url));

/** A `novarch serve` in its own process (the built bin), on a free port. */
export interface NovarchServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with its exit code once it exited. */
  exited: Promise<number | null>;
}

/** Starts `novarch serve --listen <listen> …args` (default a free port) and resolves once it listens. */
export async function startServerProcess(
  args: string[],
  env: Record<string, string> = {},
  listen = '127.0.0.1:0',
): Promise<NovarchServerProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', '--listen', listen, ...args], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = waitUntil(() => /listening on (http:\/\/[0-9.:]+)/.exec(output)?.[1], {
    timeoutMs: 30_000,
    what: 'novarch serve to listen',
    intervalMs: 50,
  });
  // An exit before it listens fails at once, not at the deadline.
  const url = await Promise.race([listening, exited.then(() => undefined)]).catch(() => undefined);
  if (url === undefined) {
    child.kill('SIGKILL');
    throw new Error(`novarch serve did not start:\n${output}`);
  }
  return { url, child, output: () => output, exited };
}
