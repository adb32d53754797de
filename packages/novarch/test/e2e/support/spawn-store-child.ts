import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const CHILD_SCRIPT = fileURLToPath(new URL('./store-child.ts', import.meta.url));

const lineSchema = z.looseObject({ event: z.string() });

/** One JSON line a store child printed. */
export type ChildLine = z.infer<typeof lineSchema>;

/** A running `store-child.ts` process, with its output lines as they arrive. */
export interface StoreChild {
  process: ChildProcess;
  /** Resolves with the first line whose `event` is `event` (rejects if the child exits first). */
  next(event: string): Promise<ChildLine>;
  /** Resolves with the exit code (or the signal) once the child has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Spawns `store-child.ts <command> <file> ...args` in a new Node process (TypeScript via tsx). */
export function spawnStoreChild(command: string, file: string, ...args: string[]): StoreChild {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD_SCRIPT, command, file, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const seen: ChildLine[] = [];
  const waiters: { event: string; resolve: (line: ChildLine) => void }[] = [];
  if (child.stdout === null) throw new Error('the store child has no stdout');
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
          throw new Error(`store child exited (${code ?? signal}) before "${event}":\n${stderr}`);
        }),
      ]);
    },
  };
}
