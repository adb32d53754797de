/**
 * Where a recorded model request belongs (`holodeck test --record/--replay`): a test case, its
 * attempt and the user turn. The recorder's key; plain data everything else passes along.
 */
export interface TrafficScope {
  /** The test case's name (chat: `chat`; requests outside any case: `_setup`). */
  readonly caseName: string;
  /** 1-based attempt of the case (`--repeat`). */
  readonly attempt: number;
  /** 1-based user turn; advanced with `markTurn` as a conversation goes on. */
  turn: number;
}

/**
 * One run's model traffic when it is recorded or replayed, handed explicitly to everything the run
 * calls (backend, tools, judges): each request then belongs to the run's scope. Explicit rather
 * than an AsyncLocalStorage, whose promise hooks cost Node 20 ~15 % CPU on a streamed run.
 */
export interface RunTraffic {
  readonly scope: TrafficScope;
  /** fetch for the run's in-process model requests (the AI SDK backend's agent loop). */
  readonly fetch: typeof fetch;
  /** fetch for the run's embeddings requests (a retrieval tool's query). */
  readonly embeddingsFetch: typeof fetch;
}

/** Tells the recording that a conversation moved to user turn `turn` (1-based); a no-op when unrecorded. */
export function markTurn(scope: TrafficScope | undefined, turn: number): void {
  if (scope) scope.turn = turn;
}
