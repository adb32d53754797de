import type { ExecutionResult } from '../../execution-result.js';
import type { TurnOptions } from './run-progress.js';
import type { SessionEvent } from './session-event.js';

/** A stateful multi-turn conversation. One session keeps one agent process alive across turns. */
export interface AgentSession {
  /** Id of the conversation once known (after the first turn starts); pass it to `resume` later. */
  readonly sessionId: string | undefined;
  /** Sends one user message and resolves with the complete result of that turn. */
  send(message: string, options?: TurnOptions): Promise<ExecutionResult>;
  /** Sends one user message and yields events as they happen; the last event is `finish`. */
  sendStreaming(message: string, options?: TurnOptions): AsyncIterable<SessionEvent>;
  /**
   * Starts a new conversation (no history, a new session id) in the same session, so a test
   * case reusing it sees nothing of the one before (`holodeck test --isolation session`).
   */
  reset(): Promise<void>;
  /**
   * Stops the turn in flight (Ctrl+C in a chat); the turn ends with its `finish` event (an error
   * result) and the session goes on: the next `sendStreaming` continues the same conversation.
   * Does nothing between turns.
   */
  interrupt(): Promise<void>;
  /** Ends the session and releases its process. Safe to call twice. */
  close(): Promise<void>;
}
