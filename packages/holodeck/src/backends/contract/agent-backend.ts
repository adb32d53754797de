import type { AgentSession } from './agent-session.js';
import type { ExecutionResult } from './execution-result.js';
import type { BackendWarning } from './session-event.js';

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
}

/** Options for a new session. */
export interface CreateSessionOptions {
  /** Resume a saved conversation by its session id instead of starting a new one. */
  resume?: string;
  /** Run in this folder instead of the configured working directory. */
  workingDirectory?: string;
}

/**
 * Hints a backend may use to start faster; a backend without processes to start ignores them.
 * Given to `selectBackend`.
 */
export interface BackendOptions {
  /**
   * Agent processes to keep started ahead of `invokeOnce` calls, so a run skips a process start.
   * Used by `holodeck test`; 0 (default) starts each run cold.
   */
  prewarm?: number;
  /** Most processes the pre-warming may start in all (default unlimited). */
  prewarmBudget?: number;
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
  /** Releases everything the backend holds (sessions, warm processes). */
  teardown(): Promise<void>;
}
