import type { Elicit, RunTraffic } from '../../tools/index.js';
import type { ExecutionResult, ProgressListener, SessionEvent } from '../contract/index.js';
import type { ApprovalGate } from './approve-tool-calls.js';
import type { RunGovernance } from './open-run-governance.js';
import type { SessionMessage } from './session-message.js';

/** One run: the conversation so far, the new user message, and what may stop it. */
export interface TurnInput {
  history: readonly SessionMessage[];
  message: string;
  signal?: AbortSignal;
  /** Reported in the result's `session_id`. */
  sessionId?: string;
  /** Novarch for this run, when the agent is governed: tool calls go through its governor. */
  governance?: RunGovernance;
  /** A session that asks its user, or refuses what needs asking (see approve-tool-calls.ts); unset: tools run. */
  approval?: ApprovalGate;
  /** Answers MCP servers' elicitation requests during the run's calls (a session); unset: declined. */
  elicit?: Elicit;
  /** Told of the run's progress as it happens (InvokeOptions.onProgress, TurnOptions.onProgress). */
  onProgress?: ProgressListener;
  /** A recorded run's traffic: its model requests and tool calls are that run's. */
  traffic?: RunTraffic;
}

/** How a run ended. */
export interface TurnOutcome {
  result: ExecutionResult;
  /** The user message and what the model and tools added in this run, to append to the history. */
  messages: SessionMessage[];
  /** True when the run was stopped by its signal. */
  aborted: boolean;
}

/**
 * What `AiSdkBackend.initialize()` started: the model, the tools (function tool modules, MCP
 * connections) and the run loop. Only this interface is known to the backend and its sessions;
 * the implementation (start-ai-sdk-runtime.ts, which loads the AI SDK) is imported on demand.
 */
export interface AiSdkRuntime {
  /** The model name from agent.yaml. */
  readonly model: string;
  /** The tool names the model sees: function tools by their name, MCP tools as `mcp__<server>__<tool>`. */
  readonly toolNames: readonly string[];
  /** Opens Novarch's session for one run or chat; undefined when the agent has no `governance:` block. */
  openGovernance(): Promise<RunGovernance | undefined>;
  /** Runs one user message to its end, yielding events; returns the result and the new messages. */
  runTurn(input: TurnInput): AsyncGenerator<SessionEvent, TurnOutcome>;
  /** Closes the MCP connections, the function tool modules and Novarch's store. */
  close(): Promise<void>;
}
