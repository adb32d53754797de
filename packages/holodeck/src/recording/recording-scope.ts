import { AsyncLocalStorage } from 'node:async_hooks';

/** Where a request belongs in a recording: the case, its attempt and the conversation turn. */
export interface RecordingScope {
  /** The test case's name (chat: `chat`; requests outside any case: `_setup`). */
  readonly caseName: string;
  /** 1-based attempt of the case (`--repeat`). */
  readonly attempt: number;
  /** 1-based user turn; advanced by `markTurn` as a conversation goes on. */
  turn: number;
}

const storage = new AsyncLocalStorage<RecordingScope>();

/** Runs `task` with every model request it makes (in this process) attributed to `scope`. */
export function runInScope<T>(scope: RecordingScope, task: () => Promise<T>): Promise<T> {
  return storage.run(scope, task);
}

/** The scope of the code running now, if any. */
export function currentScope(): RecordingScope | undefined {
  return storage.getStore();
}

/** Tells the recording that the current conversation moved to user turn `turn` (1-based); a no-op outside a recording. */
export function markTurn(turn: number): void {
  const scope = storage.getStore();
  if (scope) scope.turn = turn;
}
