import type { TrafficScope } from '../tools/run-traffic.js';
import { describeValues, firstDifference } from './first-difference.js';
import type {
  CanonicalRequest,
  ExchangeSource,
  RecordedExchange,
  RecordedToolCall,
  RecordingFile,
} from './recording-file-schema.js';
import { sameTool } from './replayed-tools.js';
import { type JsonValue, stableStringify } from './stable-json.js';

const SOURCE_ORDER: Record<ExchangeSource, number> = { agent: 0, embeddings: 1, judge: 2 };

interface Loaded {
  exchange: RecordedExchange;
  key: string;
  used: boolean;
}

interface Added {
  exchange: RecordedExchange;
  arrival: number;
}

/** What a replayed request found: the recorded exchange, or why there is none. */
export type ReplayLookup = { found: RecordedExchange } | { missing: string };

/** One case's recording during a run: what was loaded (and used), what this run recorded. */
export class CaseRecording {
  private readonly loaded: Loaded[];
  private readonly added: Added[] = [];
  private readonly toolCalls: RecordedToolCall[] = [];
  private readonly requestCounts = new Map<string, number>();
  private arrivals = 0;
  /** Recordings whose responses are still being read (a stream in flight). */
  readonly pending = new Set<Promise<void>>();

  constructor(
    readonly caseName: string,
    readonly file: string,
    readonly existing: RecordingFile | undefined,
  ) {
    this.loaded = (existing?.exchanges ?? []).map((exchange) => ({
      exchange,
      key: stableStringify(exchange.request as unknown as JsonValue),
      used: false,
    }));
  }

  /** The 1-based number of this request within its attempt and turn. */
  nextRequestNumber(scope: TrafficScope): number {
    const key = `${scope.attempt}/${scope.turn}`;
    const count = (this.requestCounts.get(key) ?? 0) + 1;
    this.requestCounts.set(key, count);
    return count;
  }

  /** The first unused recorded exchange of this attempt, turn and source equal to `request`. */
  take(
    scope: TrafficScope,
    source: ExchangeSource,
    request: CanonicalRequest,
    requestNumber: number,
  ): ReplayLookup {
    const key = stableStringify(request as unknown as JsonValue);
    const sameSlot = (entry: Loaded) =>
      entry.exchange.attempt === scope.attempt &&
      entry.exchange.turn === scope.turn &&
      entry.exchange.source === source;
    const match = this.loaded.find((entry) => !entry.used && sameSlot(entry) && entry.key === key);
    if (match) {
      match.used = true;
      return { found: match.exchange };
    }
    const where = `no recording for ${this.caseName} attempt ${scope.attempt} turn ${scope.turn} request ${requestNumber}`;
    if (!this.existing)
      return { missing: `${where}: the recording folder has no file for this case (${this.file})` };
    const candidates = [
      this.loaded.filter((entry) => !entry.used && sameSlot(entry)),
      this.loaded.filter(sameSlot),
      this.loaded.filter((entry) => entry.exchange.source === source),
    ].find((list) => list.length > 0);
    if (!candidates)
      return { missing: `${where}: the recording has no ${source} request for this attempt and turn` };
    let nearest: { path: string; position: number; values: string } | undefined;
    for (const candidate of candidates) {
      const recorded = candidate.exchange.request;
      const difference =
        recorded.method === request.method && recorded.path === request.path
          ? firstDifference(request.body, recorded.body)
          : firstDifference({ path: request.path }, { path: recorded.path });
      if (!difference) continue;
      if (!nearest || difference.position > nearest.position)
        nearest = {
          path: difference.path || '(body)',
          position: difference.position,
          values: describeValues(difference.actual, difference.recorded),
        };
    }
    if (!nearest)
      return { missing: `${where}: its recording was already used by an earlier identical request` };
    return { missing: `${where}: differs from the nearest recording at ${nearest.path}: ${nearest.values}` };
  }

  /** Adds an exchange this run made live. */
  add(exchange: RecordedExchange): void {
    this.added.push({ exchange, arrival: this.arrivals++ });
  }

  /** Adds the tool calls of one attempt's turn, in call order. */
  addToolCalls(calls: readonly RecordedToolCall[]): void {
    this.toolCalls.push(...calls);
  }

  /** The recorded result of a tool call in this attempt, the n-th call of that tool with those arguments. */
  recordedToolResult(
    attempt: number,
    tool: string,
    args: JsonValue,
    nth: number,
  ): RecordedToolCall | undefined {
    const key = stableStringify(args);
    return (this.existing?.tool_calls ?? []).filter(
      (call) =>
        call.attempt === attempt && sameTool(call.tool, tool) && stableStringify(call.arguments) === key,
    )[nth];
  }

  /** Whether this run recorded anything live for this case. */
  get recordedAnything(): boolean {
    return this.added.length > 0 || this.toolCalls.length > 0;
  }

  /**
   * The exchanges to save: the loaded ones (record-missing keeps them) and the new ones, by attempt,
   * turn and source; the agent's requests in arrival order, judges' and embeddings' (which run
   * concurrently) by their content, so the order does not depend on timing.
   */
  exchangesToSave(keepLoaded: boolean): RecordedExchange[] {
    const all = [
      ...(keepLoaded
        ? this.loaded.map((entry, index) => ({
            exchange: entry.exchange,
            arrival: index - this.loaded.length,
          }))
        : []),
      ...this.added,
    ];
    const keyOf = (entry: { exchange: RecordedExchange }) =>
      stableStringify(entry.exchange.request as unknown as JsonValue);
    return all
      .sort(
        (a, b) =>
          a.exchange.attempt - b.exchange.attempt ||
          a.exchange.turn - b.exchange.turn ||
          SOURCE_ORDER[a.exchange.source] - SOURCE_ORDER[b.exchange.source] ||
          (a.exchange.source === 'agent'
            ? a.arrival - b.arrival
            : keyOf(a) < keyOf(b)
              ? -1
              : keyOf(a) > keyOf(b)
                ? 1
                : 0),
      )
      .map((entry) => entry.exchange);
  }

  /** Tool calls to save, by attempt and turn (call order kept within one). */
  toolCallsToSave(keepLoaded: boolean): RecordedToolCall[] {
    const calls = this.toolCalls.length || !keepLoaded ? this.toolCalls : (this.existing?.tool_calls ?? []);
    return [...calls].sort((a, b) => a.attempt - b.attempt || a.turn - b.turn);
  }
}
