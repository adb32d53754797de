import { type ChildProcess, spawn } from 'node:child_process';
import type { SpawnedProcess, SpawnOptions } from '@anthropic-ai/claude-agent-sdk';

const STDERR_TAIL_BYTES = 4_000;

/** CLI processes still running, so none outlives holodeck (see killOnExit). */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * However holodeck ends (its work done, a second Ctrl+C, an uncaught error), the CLI processes it
 * started end with it: an 'exit' listener runs synchronously inside process.exit(), and SIGKILL
 * is a synchronous system call. A CLI left running would go on spending tokens with nobody
 * reading its answers. The usual path (close(), stop()) has already ended them gracefully.
 */
function killOnExit(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

/**
 * Spawns the CLI ourselves (the SDK's `spawnClaudeCodeProcess` seam) so the backend knows
 * the child process: it can tell a spawn failure from a run failure, report the tail of
 * stderr when the process dies, and kill it on close.
 */
export class ClaudeProcessHandle {
  child: ChildProcess | undefined;
  private stderrTail = '';
  private spawnError: Error | undefined;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exitListeners = new Set<() => void>();

  readonly spawn = (options: SpawnOptions): SpawnedProcess => {
    const child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      signal: options.signal,
      windowsHide: true,
    });
    this.child = child;
    killOnExit(child);
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    child.on('error', (error) => {
      this.spawnError = error;
    });
    child.on('exit', (code, signal) => {
      this.exit = { code, signal };
      for (const listener of this.exitListeners) listener();
    });
    return child as unknown as SpawnedProcess;
  };

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Error raised by spawn itself (ENOENT, EACCES, ...), if any. */
  get failedToSpawn(): Error | undefined {
    return this.spawnError;
  }

  get exited(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.exit;
  }

  /** Last lines the CLI wrote to stderr (already free of our env: the CLI never echoes it). */
  get stderr(): string {
    return this.stderrTail.trim();
  }

  onExit(listener: () => void): () => void {
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /**
   * Ends the process: SIGTERM, then SIGKILL if it is still running after `graceMs`; with
   * `graceMs` 0, SIGKILL at once. Resolves once it exited.
   */
  async stop(graceMs = 3_000): Promise<void> {
    const child = this.child;
    if (!child || this.exit || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.onExit(resolve));
    child.kill(graceMs > 0 ? 'SIGTERM' : 'SIGKILL');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}

/** Describes how the CLI process ended, for error messages. */
export function describeExit(handle: ClaudeProcessHandle): string {
  if (handle.failedToSpawn) return `could not start the claude process: ${handle.failedToSpawn.message}`;
  const exit = handle.exited;
  const how = exit
    ? exit.signal
      ? `was killed by ${exit.signal}`
      : `exited with code ${exit.code}`
    : 'stopped';
  const stderr = handle.stderr ? `; stderr: ${handle.stderr.split('\n').slice(-5).join(' | ')}` : '';
  return `the claude process ${how}${stderr}`;
}
