import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { BackendVariant } from '../both-backends/backend-variants.js';
import type { E2eAgent } from '../support/e2e-agent.js';
import { HOLODECK_BIN } from '../support/run-holodeck-cli.js';

/** A `holodeck serve` child process, started by `startServe`. */
export interface ServeProcess {
  /** The base URL without a trailing slash, e.g. http://127.0.0.1:40123. */
  url: string;
  child: ChildProcess;
  stderr(): string;
  /** The request log lines (JSON, stdout is not a terminal). */
  logLines(): Record<string, unknown>[];
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

/**
 * Starts the real `holodeck serve` bin on a free port and resolves once `/ready` answers 200
 * (deadline: 30 s). Rejects with the process's stderr when it exits first.
 */
export async function startServe(
  agent: E2eAgent,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [HOLODECK_BIN, 'serve', agent.file, '--port', '0', ...args], {
    env: { NO_COLOR: '1', ...agent.env, ...env },
    cwd: agent.directory,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const deadline = setTimeout(
      () => reject(new Error(`holodeck serve did not start in 30 s:\n${stderr}`)),
      30_000,
    );
    const check = () => {
      const match = /serving .* at (http:\/\/\S+?)\/? \(/.exec(stderr);
      if (match?.[1]) {
        clearTimeout(deadline);
        resolve(match[1].replace(/\/$/, ''));
      }
    };
    child.stderr?.on('data', check);
    void exited.then((code) => {
      clearTimeout(deadline);
      reject(new Error(`holodeck serve exited (${code}) before serving:\n${stderr}`));
    });
  });
  return {
    url,
    child,
    stderr: () => stderr,
    logLines: () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    exited,
  };
}

/** POSTs JSON (with an optional API key) and returns the response. */
export function postJson(url: string, body: unknown, key?: string, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The events of an SSE response body: `{ event, data }` for each, in order. */
export async function readSse(response: Response): Promise<{ event: string; data: unknown }[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      return { event, data: JSON.parse(data) as unknown };
    });
}

/**
 * Two `holodeck serve` instances, `alpha` and `beta`, of two copies of one agent (each its own
 * folder and HOME) that share nothing but `serve.sessions_dir`, as two machines would. `stop()`
 * stops whichever still runs; a test that stops one itself sets it to undefined.
 */
export interface TwoInstances {
  shared: string;
  agent: E2eAgent;
  other: E2eAgent;
  alpha: ServeProcess | undefined;
  beta: ServeProcess | undefined;
  stop(): Promise<void>;
}

/** Starts two instances of the agent `agentOf(shared sessions folder)` makes, one call per copy. */
export async function startTwoInstances(agentOf: (shared: string) => E2eAgent): Promise<TwoInstances> {
  const shared = mkdtempSync(path.join(tmpdir(), 'holodeck-shared-sessions-'));
  const agent = agentOf(shared);
  const other = agentOf(shared);
  const pair: TwoInstances = {
    shared,
    agent,
    other,
    alpha: await startServe(agent, ['--instance-id', 'alpha']),
    beta: await startServe(other, ['--instance-id', 'beta']),
    async stop() {
      await pair.alpha?.stop();
      await pair.beta?.stop();
    },
  };
  return pair;
}

/**
 * The first turn of the conversation the two-instance tests hold, on alpha: a new session, asked
 * "Capital of France?", answers "Paris." (the model is scripted for both turns). Returns its id.
 */
export async function firstTurnOnAlpha(pair: TwoInstances, variant: BackendVariant): Promise<string> {
  variant.script(variant.reply('Paris.'), variant.reply('About 2.1 million.'));
  const id = ((await (await postJson(`${pair.alpha?.url}/v1/sessions`, {})).json()) as { id: string }).id;
  const first = await postJson(`${pair.alpha?.url}/v1/sessions/${id}/messages`, {
    message: 'Capital of France?',
  });
  expect(await first.json()).toMatchObject({ response: 'Paris.' });
  return id;
}

/** Stops alpha, then the second turn goes to beta: it resumes session `id`, its first turn sent to the model. */
export async function resumeOnBeta(pair: TwoInstances, variant: BackendVariant, id: string): Promise<void> {
  expect(await pair.alpha?.stop()).toBe(0);
  pair.alpha = undefined;
  const resumed = await postJson(`${pair.beta?.url}/v1/sessions/${id}/messages`, {
    message: 'Its population?',
  });
  expect(resumed.status).toBe(200);
  expect(await resumed.json()).toMatchObject({ sessionId: id, response: 'About 2.1 million.' });
  expect(variant.requests().at(-1)?.conversation).toContain('Capital of France?');
  expect(variant.requests().at(-1)?.conversation).toContain('Paris.');
}
