import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const CHILD_SCRIPT = fileURLToPath(new URL('./store-child.ts', import.meta.url));

const lineSchema = z.looseObject({ event: z.string() });

/** One JSON line a store child printed. */
export type ChildLine = z.infer<typeof lineSchema>;

/** A running `store-child.ts` (or other script) process, with its output lines as they arrive. */
export interface StoreChild {
  process: ChildProcess;
  /** Resolves with the first line whose `event` is `event` (rejects if the child exits first). */
  next(event: string): Promise<ChildLine>;
  /** Resolves with the exit code (or the signal) once the child has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Spawns `store-child.ts <command> <file> ...args` in a new Node process (TypeScript via tsx). */
export function spawnStoreChild(command: string, file: string, ...args: string[]): StoreChild {
  return spawnScriptChild(CHILD_SCRIPT, [command, file, ...args]);
}

/**
 * Spawns `node --import tsx <script> ...args`, a child that prints one JSON object per line.
 * `detached` puts it at the head of its own process group, so it can be killed with everything
 * it started (see `process-group.ts`).
 */
export function spawnScriptChild(
  script: string,
  args: string[],
  options: { detached?: boolean; env?: NodeJS.ProcessEnv } = {},
): StoreChild {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const seen: ChildLine[] = [];
  const waiters: { event: string; resolve: (line: ChildLine) => void }[] = [];
  const name = path.basename(script);
  if (child.stdout === null) throw new Error(`${name} has no stdout`);
  createInterface({ input: child.stdout }).on('line', (text) => {
    const line = lineSchema.parse(JSON.parse(text));
    seen.push(line);
    for (const waiter of waiters.filter((candidate) => candidate.event === line.event)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => {
      child.on('close', (code, signal) => resolve({ code, signal, stderr }));
    },
  );
  return {
    process: child,
    exited,
    next(event) {
      const already = seen.find((line) => line.event === event);
      if (already !== undefined) return Promise.resolve(already);
      return Promise.race([
        new Promise<ChildLine>((resolve) => waiters.push({ event, resolve })),
        exited.then(({ code, signal }) => {
          throw new Error(`${name} exited (${code ?? signal}) before "${event}":\n${stderr}`);
        }),
      ]);
    },
  };
}
