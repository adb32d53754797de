import type { ExecutionResult } from '../../execution-result.js';
import type { HoloDeckTool } from '../../tools/holodeck-tool.js';
import type { RunTraffic } from '../../tools/run-traffic.js';
import type { AgentSession } from './agent-session.js';
import type { ApprovalMode } from './approval.js';
import type { ElicitationMode, ElicitationRecord } from './elicitation.js';
import type { ProgressListener } from './run-progress.js';
import type { BackendWarning, SessionEvent } from './session-event.js';
import type { SessionTranscript } from './session-transcript.js';

/** A prior message handed to `invokeOnce` as conversation context. */
export interface ConversationMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** Per-run options of `invokeOnce`. */
export interface InvokeOptions {
  /** Run in this folder instead of the configured working directory (e.g. a per-test copy). */
  workingDirectory?: string;
  /** Aborts the run (timeouts, Ctrl-C); the promise then rejects with AgentSessionError. */
  signal?: AbortSignal;
  /** Told of each Novarch hold of a governed run (`hold-pending`, `hold-resolved`) as it happens. */
  onHold?: (event: SessionEvent) => void;
  /** Told of each MCP elicitation request of the run, which a one-shot run declines (its record, no values). */
  onElicitation?: (record: ElicitationRecord) => void;
  /** Told of the run's usage, responses and tool calls as they happen (to stop it at a limit). */
  onProgress?: ProgressListener;
  /** With BackendOptions.modelTraffic: the run's requests and tool calls belong to this run (its case and attempt). */
  traffic?: RunTraffic;
}

/** Options for a new session. */
export interface CreateSessionOptions {
  /** Resume a saved conversation by its session id instead of starting a new one. */
  resume?: string;
  /** Run in this folder instead of the configured working directory. */
  workingDirectory?: string;
  /**
   * `ask`: a tool call that needs approval yields an `approval-request` event and waits for its
   * answer (an interactive chat). `refuse` (default): such calls are refused with a message naming
   * the setting that allows them, as in runs nobody watches.
   */
  approvals?: ApprovalMode;
  /**
   * `ask`: an MCP server's elicitation request (input it needs during a tool call) yields an
   * `elicitation-request` event and waits for the answer (an interactive chat). `decline`
   * (default): it is declined at once, as in runs nobody watches. Both yield `elicitation-resolved`.
   */
  elicitations?: ElicitationMode;
  /** With BackendOptions.modelTraffic: the session's requests and tool calls belong to this run. */
  traffic?: RunTraffic;
}

/** One-shot runs to come, for a backend that can start agent processes ahead of them. */
export interface PrewarmHint {
  /** `invokeOnce` calls to come: no process is started ahead that no call would use. */
  runs: number;
  /** How many of them run at a time. */
  concurrency: number;
}

/**
 * Hints a backend may use to start faster, and the bound on its agent processes; a backend
 * without processes to start ignores them (its profile says so: `agentProcesses`). Given to
 * `selectBackend`.
 */
export interface BackendOptions {
  /**
   * Pre-warm agent processes for the `invokeOnce` calls to come, while they pay off (a process
   * is started ahead only when the model's answers, as measured in the run, take longer than a
   * process start-up). Used by `holodeck test --isolation process`; unset: every run starts cold.
   */
  prewarm?: PrewarmHint;
  /**
   * Most agent processes alive at once: runs, sessions and pre-warmed spares together
   * (`holodeck test --max-processes`). Runs wait for a free one. Unset: with `prewarm`, its
   * concurrency plus the few spares free memory allows; without, unbounded.
   */
  maxProcesses?: number;
  /**
   * Model traffic goes through HoloDeck's recorder (`holodeck test --record/--replay`): in-process
   * model requests use `fetch`; an agent process gets the base URL of `routeFor(<its Anthropic base
   * URL>)` when it starts, and claims the route when a run uses it (at once, or when a run takes a
   * pre-warmed spare). A run's own requests use the RunTraffic of its InvokeOptions or
   * CreateSessionOptions; these are for the rest (start-up, retrieval ingest).
   */
  modelTraffic?: ModelTraffic;
}

/** Where a backend sends its model requests when they are recorded or replayed. */
export interface ModelTraffic {
  /** fetch for the model requests a backend makes in this process (AI SDK, embeddings). */
  fetch: typeof fetch;
  /**
   * fetch for the embeddings requests of retrieval tools. Their indexes are then rebuilt at start
   * (as `--force-ingest`), so a recording holds every embedding a fresh checkout needs.
   */
  embeddingsFetch: typeof fetch;
  /** The route of an agent process started now, whose live requests would go to `upstream`. */
  routeFor(upstream: string): ModelRoute;
  /** The in-process tools (function, retrieval) as the run uses them: some answered from the recording. */
  wrapTools(tools: readonly HoloDeckTool[]): HoloDeckTool[];
}

/** Where an agent process sends its model requests when they are recorded or replayed. */
export interface ModelRoute {
  /** The base URL the process is started with. */
  baseUrl: string;
  /**
   * Binds the route to the run that uses the process (unset: the traffic's own default scope):
   * the process's requests belong to it, those already made wait for this call. Call it once, when
   * a run starts using the process (at once, or when a run takes a pre-warmed spare).
   */
  claim(run: RunTraffic | undefined): void;
  /** The run that claimed the route: the process's in-process tool calls are given it (ToolExecuteOptions.traffic). */
  readonly claimedBy: RunTraffic | undefined;
}

/** A tool the started agent is offered, as `listTools()` reports it. */
export interface OfferedTool {
  /** The name tool calls carry (`ToolCall.name`), e.g. `Read`, `mcp__everything__echo`. */
  name: string;
  /** For a tool of an agent.yaml MCP server: that server's name and the tool's own name on it. */
  mcp?: { server: string; tool: string };
}

/** A provider backend: runs the agent described by one agent.yaml. */
export interface AgentBackend {
  /** Warnings found while preparing the backend (ignored settings, unsupported fields, ...). */
  readonly warnings: readonly BackendWarning[];
  /**
   * Checks the backend's startup rules, credentials and runtime, starts what the agent needs
   * (tool modules, MCP servers). Must be called before anything else; throws ConfigError,
   * CredentialError or RuntimeMissingError.
   */
  initialize(): Promise<void>;
  /** Runs one stateless invocation in a fresh conversation. */
  invokeOnce(
    message: string,
    context?: readonly ConversationMessage[],
    options?: InvokeOptions,
  ): Promise<ExecutionResult>;
  /** Starts a stateful multi-turn session. */
  createSession(options?: CreateSessionOptions): Promise<AgentSession>;
  /**
   * Every tool the model is offered once the agent runs, MCP servers' tools included (their
   * names are only known once the servers answer). `holodeck test` calls it at run start, only when
   * an expectation names a tool by a short name it cannot resolve statically. May start what the
   * agent needs (an agent process, the MCP servers); releases it before resolving. Throws
   * AgentSessionError when an MCP server of agent.yaml does not start.
   */
  listTools(): Promise<OfferedTool[]>;
  /**
   * The transcript of a saved chat session (the id a chat prints when it ends): its user turns,
   * the tools each ran and each final answer. Reads files only: needs no `initialize()`, starts
   * nothing. Throws AgentSessionError naming where it looked when there is no such session, or
   * when its file cannot be read.
   */
  readTranscript(sessionId: string): Promise<SessionTranscript>;
  /**
   * Copies the saved state of session `sessionId` (what `createSession({ resume })` reads: the AI
   * SDK's session file, the Claude CLI's transcript) into `directory`, so that a backend on another
   * machine can resume it (`holodeck serve`'s serve.sessions_dir). Resolves false when the session
   * has no saved state yet. Reads and writes files only.
   */
  exportSession(sessionId: string, directory: string): Promise<boolean>;
  /**
   * Puts the state `exportSession` wrote to `directory` where `createSession({ resume: sessionId })`
   * finds it, replacing this machine's copy (the exported one is the newest). Resolves false when
   * `directory` holds none.
   */
  importSession(sessionId: string, directory: string): Promise<boolean>;
  /** Releases everything the backend holds (sessions, warm processes). */
  teardown(): Promise<void>;
}
