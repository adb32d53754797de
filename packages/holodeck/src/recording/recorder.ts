import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ModelRoute } from '../backends/contract/index.js';
import { holodeckVersion } from '../holodeck-version.js';
import type { HoloDeckTool } from '../tools/holodeck-tool.js';
import type { RunTraffic, TrafficScope } from '../tools/run-traffic.js';
import {
  canonicaliseRequest,
  type OutgoingRequest,
  type Redaction,
  redactValue,
} from './canonicalise-request.js';
import { CaseRecording } from './case-recording.js';
import { checkRecordedAgent } from './check-recorded-agent.js';
import { outgoingOf } from './outgoing-request.js';
import { asResponse, type ExchangeAnswer, noRecordingAnswer } from './recorded-response.js';
import { RecordedResponseReader } from './recorded-response-reader.js';
import { RecordingError } from './recording-error.js';
import { caseFileName, readRecordingFolder, serialiseRecording, writeAtomically } from './recording-file.js';
import {
  type ExchangeSource,
  RECORDING_FORMAT,
  RECORDING_FORMAT_VERSION,
  type RecordedAgent,
  type RecordedToolCall,
  type RecordingFile,
} from './recording-file-schema.js';
import { RecordingProxy } from './recording-proxy.js';
import { replayedTools } from './replayed-tools.js';
import { stabiliseIds } from './stable-ids.js';
import type { JsonValue } from './stable-json.js';

/** The scope of requests made outside any case (start-up, the retrieval tools' ingest). */
export const SETUP_CASE = '_setup';

/** A new scope: attempt `attempt` of case `caseName`, at its first turn. */
export function scopeOf(caseName: string, attempt = 1): TrafficScope {
  return { caseName, attempt, turn: 1 };
}

/** Options of `Recorder.open`. */
export interface RecorderOptions {
  /** The recording folder (one JSON file per case). */
  directory: string;
  /** `record`: every request goes live and is recorded; `replay`: answered from the recordings. */
  mode: 'record' | 'replay';
  /** With `replay`: a request with no recording goes live and is added (needs the key). */
  recordMissing?: boolean;
  /** With `record`: replace the recordings of the cases that run (otherwise an existing one is refused). */
  reRecord?: boolean;
  /** With `replay`: tool calls are answered from the recording instead of running (`--replay-tools`). */
  replayTools?: boolean;
  /** With `replay`: the tools whose calls are answered from the recording (`replay_tools: true`). */
  replayToolNames?: readonly string[];
  /** The agent the recordings are for; a recording of another agent is refused. */
  agent: RecordedAgent;
  /** How secrets are kept out of every recorded byte (headers are never recorded at all). */
  redaction: Redaction;
  /** Where live requests go (default `globalThis.fetch`). */
  upstreamFetch?: typeof fetch;
  onNotice?: (message: string) => void;
}

/** A request this run could not answer from the recording. */
export interface UnmatchedRequest {
  caseName: string;
  attempt: number;
  message: string;
}

/**
 * Records model traffic (`holodeck test --record`) or answers it from recordings (`--replay`).
 * Every client goes through `exchange`: the in-process ones (AI SDK, judges, embeddings) through
 * `fetchIn`, the Claude CLI through the loopback proxy at `routeFor`. A request belongs to the
 * case, attempt and turn of the scope it is made for: the RunTraffic a run is handed
 * (`runAttempt`, `trafficFor`), whose turn `markTurn` advances.
 */
export class Recorder {
  private readonly cases = new Map<string, CaseRecording>();
  private readonly unmatched: UnmatchedRequest[] = [];
  private readonly upstreamFetch: typeof fetch;
  private proxy: RecordingProxy | undefined;
  private liveRequests = 0;

  private constructor(
    readonly options: RecorderOptions,
    private readonly existing: Map<string, { file: string; recording: RecordingFile }>,
  ) {
    this.upstreamFetch = options.upstreamFetch ?? globalThis.fetch;
  }

  /**
   * Opens a recording folder. For replay every file is read and checked now (a broken file stops
   * the run before anything runs), and recordings of another agent are refused.
   */
  static async open(options: RecorderOptions): Promise<Recorder> {
    const directory = path.resolve(options.directory);
    const folder = await stat(directory).catch(() => undefined);
    if (options.mode === 'replay' && !folder?.isDirectory())
      throw new RecordingError(
        `--replay: the recording folder ${directory} does not exist\n    hint: record the suite first with \`holodeck test <agent.yaml> --record ${options.directory}\``,
      );
    if (folder && !folder.isDirectory())
      throw new RecordingError(`--record: ${directory} is a file, not a folder`);
    const existing = folder ? await readRecordingFolder(directory) : new Map();
    const recorder = new Recorder({ ...options, directory }, existing);
    for (const { file, recording } of existing.values())
      checkRecordedAgent(file, recording, options.agent, options.onNotice);
    return recorder;
  }

  /** With `record` and no `reRecord`: refuses to replace the recording of any of these cases. */
  checkCanRecord(caseNames: readonly string[]): void {
    if (this.options.mode !== 'record' || this.options.reRecord) return;
    const taken = caseNames.filter((name) => this.existing.has(name));
    if (taken.length)
      throw new RecordingError(
        `--record: ${taken.length === 1 ? 'case' : 'cases'} ${taken.map((name) => JSON.stringify(name)).join(', ')} already ${taken.length === 1 ? 'has a recording' : 'have recordings'} in ${this.options.directory}\n    hint: add --re-record to replace ${taken.length === 1 ? 'it' : 'them'}, or use --replay --record-missing to add only what is missing`,
      );
  }

  get mode(): 'record' | 'replay' {
    return this.options.mode;
  }

  /** Requests that went to the real upstream in this run. */
  get upstreamRequests(): number {
    return this.liveRequests;
  }

  /** Requests of this run with no recording (replay without record-missing). */
  unmatchedRequests(): readonly UnmatchedRequest[] {
    return this.unmatched;
  }

  /** Starts the loopback proxy the Claude CLI is pointed at. */
  async start(): Promise<void> {
    this.proxy ??= await RecordingProxy.listen((scope, request) => this.exchange('agent', scope, request));
  }

  /**
   * The route of an agent process started now: live, its requests go to `upstream`; they belong to
   * the run that claims it (a pre-warmed spare is claimed by the run that takes it), or to
   * `fallback` when that run has no traffic of its own (a chat, listing the tools).
   */
  routeFor(upstream: string, fallback: TrafficScope): ModelRoute {
    if (!this.proxy) throw new Error('Recorder.start() must be called first (this is a bug).');
    const route = this.proxy.routeFor(upstream);
    let claimedBy: RunTraffic | undefined;
    return {
      baseUrl: route.baseUrl,
      claim: (run) => {
        claimedBy = run;
        route.claim(run?.scope ?? fallback);
      },
      get claimedBy() {
        return claimedBy;
      },
    };
  }

  /** fetch for an in-process client: its requests are recorded or replayed as `scope`'s. */
  fetchIn(scope: TrafficScope, source: ExchangeSource): typeof fetch {
    return async (input, init) => {
      const { outgoing, forward } = await outgoingOf(input, init);
      return asResponse(await this.exchange(source, scope, outgoing, () => forward(this.upstreamFetch)));
    };
  }

  /** The traffic of a run in `scope`, to hand to what it calls (backend, tools). */
  trafficFor(scope: TrafficScope): RunTraffic {
    return { scope, fetch: this.fetchIn(scope, 'agent'), embeddingsFetch: this.fetchIn(scope, 'embeddings') };
  }

  /** Runs one attempt of a case with its traffic: every request made with it belongs to the attempt. */
  runAttempt<T>(caseName: string, attempt: number, task: (traffic: RunTraffic) => Promise<T>): Promise<T> {
    return task(this.trafficFor(scopeOf(caseName, attempt)));
  }

  /** The messages of the requests of an attempt that had no recording. */
  unmatchedOf(caseName: string, attempt: number): string[] {
    return this.unmatched
      .filter((entry) => entry.caseName === caseName && entry.attempt === attempt)
      .map((entry) => entry.message);
  }

  private caseFor(caseName: string): CaseRecording {
    let entry = this.cases.get(caseName);
    if (!entry) {
      const existing = this.existing.get(caseName);
      const file = existing?.file ?? path.join(this.options.directory, caseFileName(caseName));
      entry = new CaseRecording(caseName, file, existing?.recording);
      this.cases.set(caseName, entry);
    }
    return entry;
  }

  /** The one path of every request: answered from the recording, or sent live and recorded. */
  async exchange(
    source: ExchangeSource,
    scope: TrafficScope,
    request: OutgoingRequest & { headers?: Record<string, string> },
    live?: () => Promise<Response>,
  ): Promise<ExchangeAnswer> {
    const entry = this.caseFor(scope.caseName);
    const requestNumber = entry.nextRequestNumber(scope);
    const canonical = canonicaliseRequest(request, this.options.redaction);
    if (this.options.mode === 'replay') {
      const lookup = entry.take(scope, source, canonical, requestNumber);
      if ('found' in lookup) return { recorded: lookup.found.response };
      if (!this.options.recordMissing) {
        this.unmatched.push({ caseName: scope.caseName, attempt: scope.attempt, message: lookup.missing });
        return noRecordingAnswer(canonical.path, lookup.missing);
      }
    }
    this.liveRequests++;
    const response = await (live ? live() : this.forward(request));
    const reader = new RecordedResponseReader(response);
    const { attempt, turn } = scope;
    const done = reader.recorded.then((recorded) => {
      entry.add({
        attempt,
        turn,
        source,
        request: canonical,
        response: {
          ...recorded,
          ...(recorded.body !== undefined
            ? { body: redactValue(recorded.body, this.options.redaction) }
            : {}),
        },
      });
    });
    entry.pending.add(done);
    void done.finally(() => entry.pending.delete(done));
    return { live: reader.forClient };
  }

  private forward(request: OutgoingRequest & { headers?: Record<string, string> }): Promise<Response> {
    return this.upstreamFetch(request.url, {
      method: request.method,
      ...(request.headers ? { headers: request.headers } : {}),
      ...(request.body ? { body: request.body } : {}),
    });
  }

  /** Records the tool calls of one turn of an attempt (they replay from here with `replay_tools`). */
  recordToolCalls(caseName: string, calls: readonly RecordedToolCall[]): void {
    if (this.options.mode === 'record' || this.options.recordMissing)
      this.caseFor(caseName).addToolCalls(
        calls.map((call) => ({
          ...call,
          arguments: redactValue(call.arguments, this.options.redaction),
          result: redactValue(call.result, this.options.redaction),
        })),
      );
  }

  /** A recorded tool result for a call of `scope`'s attempt, when tools are replayed. */
  recordedToolResult(
    scope: TrafficScope,
    tool: string,
    args: JsonValue,
    nth: number,
  ): RecordedToolCall | undefined {
    return this.caseFor(scope.caseName).recordedToolResult(scope.attempt, tool, args, nth);
  }

  /** Counts something of `scope`'s attempt that the recording could not answer (a replayed tool call). */
  noteUnmatched(scope: TrafficScope, message: string): void {
    this.unmatched.push({ caseName: scope.caseName, attempt: scope.attempt, message });
  }

  /**
   * The tools as this run uses them: with --replay, those marked `replay_tools: true` (or all of
   * them, `--replay-tools`) answered from the recording (a call with no traffic as `fallback`'s);
   * otherwise unchanged.
   */
  wrapTools(tools: readonly HoloDeckTool[], fallback: TrafficScope): HoloDeckTool[] {
    if (this.options.mode !== 'replay') return [...tools];
    const all = this.options.replayTools ?? false;
    const marked = new Set(this.options.replayToolNames ?? []);
    return replayedTools(tools, this, (name) => all || marked.has(name), fallback);
  }

  /** Writes the recording of a finished case (record, or replay that recorded what was missing). */
  async saveCase(caseName: string): Promise<void> {
    const entry = this.cases.get(caseName);
    if (!entry) return;
    await Promise.all([...entry.pending]);
    const keepLoaded = this.options.mode === 'replay';
    if (keepLoaded && !entry.recordedAnything) return;
    const file: Omit<RecordingFile, 'shared'> = {
      format: RECORDING_FORMAT,
      version: RECORDING_FORMAT_VERSION,
      holodeck: holodeckVersion(),
      agent: this.options.agent,
      case: caseName,
      exchanges: stabiliseIds(entry.exchangesToSave(keepLoaded)),
      tool_calls: entry.toolCallsToSave(keepLoaded),
    };
    await writeAtomically(entry.file, serialiseRecording(file));
  }

  /** Saves every case still unsaved (the setup scope's requests among them) and stops the proxy. */
  async close(): Promise<void> {
    if (this.options.mode === 'record' || this.options.recordMissing) {
      const setup = this.cases.get(SETUP_CASE);
      if (setup) await this.saveCase(SETUP_CASE);
    }
    await this.proxy?.close();
    this.proxy = undefined;
  }
}
