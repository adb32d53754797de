/** Whose past actions a `history` call reads: the session's, the agent's (in its tenant) or the tenant's. */
export type HistoryScope = 'session' | 'agent' | 'tenant';

/** A filter value: a past action matches when its field equals it (JSON equality). */
export type HistoryFilterValue = string | number | boolean | null;

/** What a history call reads: past actions (writes) or past evidence (reads that ran). */
export type HistoryKind = 'action' | 'evidence';

/**
 * One `history.*` call of a condition, its arguments evaluated: an aggregate over the past
 * actions of `actionType` (or, with `kind: 'evidence'`, the evidence of tool `actionType`) in
 * `scope`, recorded in the `windowMs` before the judged action and before it in the store's order.
 */
export interface HistoryQuery {
  scope: HistoryScope;
  /** Absent: `action`. */
  kind?: HistoryKind;
  aggregate: 'count' | 'sum' | 'exists';
  /** The action type; for evidence, the tool name. */
  actionType: string;
  windowMs: number;
  /** For `sum`: the path of the summed field (`context.amount`), as `HistoryField`. */
  field?: HistoryField;
  /**
   * Every entry must hold: `context.x` / `input.x` equal to the value, `tool`, or `released`;
   * for evidence `input.x` / `output.x`, or `error`.
   */
  filter: HistoryFilter[];
}

/**
 * A field of a past record: an action's `context` or `input` JSON, evidence's `input` or
 * `output`, and the keys down to the value.
 */
export interface HistoryField {
  column: 'context' | 'input' | 'output';
  keys: readonly string[];
}

/** One filter entry of a history query. */
export type HistoryFilter =
  | { kind: 'field'; field: HistoryField; value: HistoryFilterValue }
  | { kind: 'tool'; value: string }
  /** Whether the past action had been let run by the time the judged action was recorded. */
  | { kind: 'released'; value: boolean }
  /** Evidence only: whether the read failed. */
  | { kind: 'error'; value: boolean };

/**
 * Answers history queries as of one judged action (the store's; `actionHistorySource`). The
 * answer of `count` and `exists` is a count, of `sum` a number (0 over no action).
 */
export interface HistorySource {
  answer(query: HistoryQuery): Promise<number>;
}

/** What a store offers for history conditions (`KyselyNovarchStore` does, on SQLite and PostgreSQL). */
export interface ActionHistoryStore {
  /**
   * The answer to `query` over the actions stored before action `actionId` (lower store sequence)
   * and created at most `windowMs` before it, in the scope of its session. Deterministic: it reads
   * stored values only (the judged action's own `created_at` is the window's end), so a replay
   * gets the answers the live judgement got. Fails when no action has that id.
   */
  queryActionHistory(actionId: string, query: HistoryQuery): Promise<number>;
}

/** Whether `store` can answer history queries. */
export function hasActionHistory(store: object): store is ActionHistoryStore {
  return 'queryActionHistory' in store && typeof store.queryActionHistory === 'function';
}

/** The history of `store` as of action `actionId`: what the engine and replay give the judge. */
export function actionHistorySource(store: ActionHistoryStore, actionId: string): HistorySource {
  return { answer: (query) => store.queryActionHistory(actionId, query) };
}
