import type { Environment } from '@marcbachmann/cel-js';
import type { HistoryKind, HistoryQuery, HistoryScope, HistorySource } from '../../model/action-history.js';
import { parseHistoryField, parseHistoryFilter } from './parse-history-filter.js';
import { parseHistoryWindow } from './parse-history-window.js';

/**
 * The most history queries one condition may make on one write. The step budget bounds it first
 * (each call counts `HISTORY_CALL_STEPS`); this is the guard of last resort, at run time.
 */
export const MAX_HISTORY_QUERIES = 20;

/** What one history call counts against a condition's step budget (one indexed store query). */
export const HISTORY_CALL_STEPS = 10_000;

/** The names of the history functions, as conditions call them. */
export const HISTORY_FUNCTIONS = ['count', 'sum', 'exists'] as const;

/** The queries of one judgement, shared by the scopes of one `history` variable. */
class HistoryQueries {
  readonly #answers = new Map<string, Promise<number>>();
  constructor(readonly source: HistorySource | undefined) {}

  /** The answer to `query`; the same query twice in one judgement is asked once. */
  answer(query: HistoryQuery): Promise<number> {
    const key = JSON.stringify(query);
    const known = this.#answers.get(key);
    if (known !== undefined) return known;
    if (this.source === undefined)
      throw new Error('history is not available here (no store to read past actions from)');
    if (this.#answers.size >= MAX_HISTORY_QUERIES)
      throw new Error(`more than ${MAX_HISTORY_QUERIES} different history queries on one write`);
    const answer = this.source.answer(query);
    this.#answers.set(key, answer);
    return answer;
  }
}

/** `history.evidence`, `history.session.evidence`, `history.agent.evidence`: past reads of a scope. */
export class CelEvidenceHistory {
  readonly kind: HistoryKind = 'evidence';
  constructor(
    readonly scope: HistoryScope,
    readonly queries: HistoryQueries,
  ) {}
}

/** `history.session` and `history.agent` in a condition: the history of one scope. */
export class CelHistoryScope {
  readonly kind: HistoryKind = 'action';
  readonly evidence: CelEvidenceHistory;
  constructor(
    readonly scope: HistoryScope,
    readonly queries: HistoryQueries,
  ) {
    this.evidence = new CelEvidenceHistory(scope, queries);
  }
}

/** `history` in a condition: the tenant's past actions, with `.session` and `.agent` narrower. */
export class CelHistory extends CelHistoryScope {
  readonly session: CelHistoryScope;
  readonly agent: CelHistoryScope;
  constructor(source: HistorySource | undefined) {
    const queries = new HistoryQueries(source);
    super('tenant', queries);
    this.session = new CelHistoryScope('session', queries);
    this.agent = new CelHistoryScope('agent', queries);
  }
}

/** Registers the `History` types and their `count`, `sum` and `exists` functions. */
export function registerHistory(environment: Environment): void {
  environment.registerType('HistoryEvidence', { ctor: CelEvidenceHistory, fields: {} });
  environment.registerType('HistoryScope', {
    ctor: CelHistoryScope,
    fields: { evidence: 'HistoryEvidence' },
  });
  environment.registerType('History', {
    ctor: CelHistory,
    fields: { session: 'HistoryScope', agent: 'HistoryScope', evidence: 'HistoryEvidence' },
  });
  for (const type of ['History', 'HistoryScope', 'HistoryEvidence']) {
    for (const filter of ['', ', map<string, dyn>']) {
      environment.registerFunction(
        `${type}.count(string, string${filter}): int`,
        async (history: HistoryReceiver, actionType: string, window: string, given?: unknown) =>
          BigInt(await ask(history, { aggregate: 'count', actionType, window, filter: given })),
      );
      environment.registerFunction(
        `${type}.exists(string, string${filter}): bool`,
        async (history: HistoryReceiver, actionType: string, window: string, given?: unknown) =>
          (await ask(history, { aggregate: 'exists', actionType, window, filter: given })) > 0,
      );
      environment.registerFunction(
        `${type}.sum(string, string, string${filter}): double`,
        (history: HistoryReceiver, actionType: string, field: string, window: string, given?: unknown) =>
          ask(history, { aggregate: 'sum', actionType, field, window, filter: given }),
      );
    }
  }
}

/** What a history function is called on: actions of a scope, or its evidence. */
type HistoryReceiver = CelHistoryScope | CelEvidenceHistory;

interface HistoryCall {
  aggregate: HistoryQuery['aggregate'];
  actionType: string;
  window: string;
  field?: string;
  filter: unknown;
}

function ask(history: HistoryReceiver, call: HistoryCall): Promise<number> {
  const window = parseHistoryWindow(call.window);
  if (!window.ok) throw new Error(`history.${call.aggregate}: ${window.message}`);
  let field: HistoryQuery['field'];
  if (call.field !== undefined) {
    const parsed = parseHistoryField(call.field, history.kind);
    if (typeof parsed === 'string') throw new Error(`history.sum: ${parsed}`);
    field = parsed;
  }
  const query: HistoryQuery = {
    scope: history.scope,
    ...(history.kind === 'evidence' ? { kind: 'evidence' } : {}),
    aggregate: call.aggregate,
    actionType: call.actionType,
    windowMs: window.ms,
    ...(field === undefined ? {} : { field }),
    filter: parseHistoryFilter(call.filter, history.kind),
  };
  return history.queries.answer(query);
}
