// Shared by the `novarch serve` benchmarks (novarch-server.mjs, novarch-servers.mjs): the real
// server in its own process, the `novarch` CLI, a free port, quantiles.
import { execFile, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const NOVARCH_BIN = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '../packages/novarch/bin/novarch.js',
);

/** The rules both benches judge with (TEAM-1: a refund needs a lookup first). */
export const RULES_FILE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '../packages/novarch/test/fixtures/rules/cs-ops-gate.rules.yaml',
);

/**
 * A server config in `directory` judging with RULES_FILE, and an agent key `keyName` of tenant
 * `bench` created in the store at `storeUrl`: what `novarch serve` and its clients need.
 */
export async function prepareServe(storeUrl, directory, keyName) {
  const config = path.join(directory, 'novarch.yaml');
  await writeFile(config, `hold_window_seconds: 60\nrules: [${JSON.stringify(RULES_FILE)}]\n`);
  const created = JSON.parse(
    await runNovarch([
      'keys',
      'create',
      '--store',
      storeUrl,
      '--tenant',
      'bench',
      '--name',
      keyName,
      '--json',
    ]),
  );
  return { config, apiKey: created.secret };
}

/** The value at quantile `q` of an ascending list (NaN when empty). */
export function quantile(sorted, q) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs the `novarch` CLI; resolves with its stdout. */
export function runNovarch(args) {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [NOVARCH_BIN, ...args],
      { env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) =>
        error ? reject(new Error(`novarch ${args.join(' ')} failed: ${stderr}`)) : resolve(stdout),
    );
  });
}

/**
 * `novarch serve` in its own process on `port`; resolves once it listens. With `profileDir`, a V8
 * CPU profile of the process is written there when it stops (SIGTERM).
 */
export async function startServeProcess(storeUrl, port, config, options = {}) {
  const profile =
    options.profileDir === undefined
      ? []
      : ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.profileDir)}`];
  const child = spawn(
    process.execPath,
    [
      ...profile,
      NOVARCH_BIN,
      'serve',
      '--store',
      storeUrl,
      '--config',
      config,
      '--listen',
      `127.0.0.1:${port}`,
    ],
    { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 60_000;
  while (!output.includes('listening on')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`novarch serve did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { child, exited, output: () => output };
}
