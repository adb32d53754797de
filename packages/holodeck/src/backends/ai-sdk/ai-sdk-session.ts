import { randomUUID } from 'node:crypto';
import type { LoadedAgent } from '../../config/index.js';
import { AgentSessionError } from '../../errors.js';
import { errorMessage } from '../../support.js';
import type { RunTraffic } from '../../tools/index.js';
import { AsyncQueue } from '../async-queue.js';
import type {
  AgentSession,
  ApprovalDecision,
  ApprovalMode,
  BackendWarning,
  ElicitationMode,
  ExecutionResult,
  SessionEvent,
  TurnOptions,
} from '../contract/index.js';
import { ElicitationBroker } from '../elicitation-broker.js';
import type { AiSdkRuntime, TurnOutcome } from './ai-sdk-runtime.js';
import type { ApprovalGate, ApprovalQuestion } from './approve-tool-calls.js';
import type { RunGovernance } from './open-run-governance.js';
import { SESSION_SCHEMA_VERSION, type SessionFile, sessionFilePath } from './session-file-schema.js';
import { SessionLock } from './session-lock.js';
import type { SessionMessage } from './session-message.js';
import { writeSessionFile } from './write-session-file.js';

/** Everything a session starts from. */
export interface AiSdkSessionInput {
  agent: LoadedAgent;
  runtime: AiSdkRuntime;
  warnings: readonly BackendWarning[];
  /** A saved session to continue, when resuming. */
  saved?: SessionFile;
  /** The lock of the saved session, taken by the backend before it read the file. */
  lock?: SessionLock;
  /** Novarch's session for this conversation, when the agent is governed. */
  governance?: RunGovernance;
  /**
   * `ask`: a call that needs approval yields an `approval-request` and waits (an interactive chat);
   * `refuse`: it is refused (a piped chat); unset: tools run (chat -p, holodeck test).
   */
  approvals?: ApprovalMode;
  /** `ask`: an MCP server's elicitation request yields an `elicitation-request`; otherwise it is declined. */
  elicitations?: ElicitationMode;
  /** A recorded run's traffic (CreateSessionOptions.traffic). */
  traffic?: RunTraffic;
}

/** What a turn's pump hands the consumer: an event, or the end of the run. */
type TurnItem = { event: SessionEvent } | { outcome: TurnOutcome } | { failure: unknown };

/**
 * A multi-turn conversation whose history HoloDeck keeps: each turn sends the whole history, and
 * after each turn the session is saved to `<agent folder>/.holodeck/sessions/<id>.json`, so it can
 * be resumed in another process. One turn at a time; `close()` stops a turn in flight.
 *
 * While it is open the session holds the lock `<id>.lock` beside its file (SessionLock): taken
 * when resuming, or at a new conversation's first save, and released by close() and reset(). Each
 * save first checks the lock is still this session's, so a session whose lock was taken over
 * (deleted by hand, or its holder presumed dead) stops saving instead of overwriting the new holder.
 */
export class AiSdkSession implements AgentSession {
  private id: string;
  private history: SessionMessage[];
  private createdAt: string;
  /** The id is reported once the conversation exists: resumed, or its first turn started. */
  private started: boolean;
  private announced = false;
  private busy = false;
  private closed = false;
  private turnController: AbortController | undefined;
  private governance: RunGovernance | undefined;
  /** Tools the user allowed for the rest of the conversation. */
  private readonly allowedForSession = new Set<string>();
  /** The lock on this conversation's file, once it has one (resumed, or saved once). */
  private lock: SessionLock | undefined;
  /** MCP servers' requests for input: asked of the consumer, or declined (input.elicitations). */
  private readonly elicitations: ElicitationBroker;

  constructor(private readonly input: AiSdkSessionInput) {
    this.id = input.saved?.sessionId ?? randomUUID();
    this.history = [...(input.saved?.messages ?? [])];
    this.createdAt = input.saved?.createdAt ?? new Date().toISOString();
    this.started = input.saved !== undefined;
    this.governance = input.governance;
    this.lock = input.lock;
    this.elicitations = new ElicitationBroker(input.elicitations);
  }

  get sessionId(): string | undefined {
    return this.started ? this.id : undefined;
  }

  async send(message: string, options: TurnOptions = {}): Promise<ExecutionResult> {
    let finished: ExecutionResult | undefined;
    for await (const event of this.sendStreaming(message, options)) {
      if (event.type === 'finish') finished = event.result;
      // send() has nobody to ask.
      if (event.type === 'approval-request')
        event.request.respond({ behavior: 'deny', reason: 'nobody can approve it in this run' });
      if (event.type === 'elicitation-request') event.request.respond({ action: 'decline' });
    }
    if (!finished) throw new AgentSessionError('the turn ended without a result (this is a bug)');
    return finished;
  }

  async *sendStreaming(message: string, options: TurnOptions = {}): AsyncGenerator<SessionEvent> {
    if (this.closed) throw new AgentSessionError('the session is closed');
    if (this.busy) throw new AgentSessionError('a turn is already in progress; wait for its finish event');
    this.busy = true;
    this.started = true;
    const controller = new AbortController();
    this.turnController = controller;
    const { runtime } = this.input;
    const channel = new AsyncQueue<TurnItem>();
    // Novarch's holds are reported from inside a tool's execute, while the run waits on them.
    const unwatchHolds = this.governance?.watchHolds((event) => channel.push({ event }));
    const turn = runtime.runTurn({
      history: this.history,
      message,
      signal: controller.signal,
      sessionId: this.id,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(this.governance ? { governance: this.governance } : {}),
      ...(this.input.traffic ? { traffic: this.input.traffic } : {}),
      // Asked from inside an MCP tool's call, while the run waits for it, as approvals are.
      elicit: (question, signal) =>
        this.elicitations.elicit(question, (event) => channel.push({ event }), signal),
      ...this.approvalFor(channel),
    });
    let outcome: TurnOutcome | undefined;
    try {
      if (!this.announced) {
        this.announced = true;
        yield {
          type: 'session-start',
          sessionId: this.id,
          model: runtime.model,
          tools: [...runtime.toolNames],
          warnings: [...this.input.warnings],
        };
      }
      // The run is read by a pump, so approval requests (made inside a tool's execute, while the
      // run waits for it) reach the consumer between the run's own events.
      void (async () => {
        try {
          for (let next = await turn.next(); ; next = await turn.next()) {
            if (next.done) {
              channel.push({ outcome: next.value });
              return;
            }
            channel.push({ event: next.value });
          }
        } catch (failure) {
          channel.push({ failure });
        }
      })();
      for (;;) {
        const item = await channel.next();
        if ('failure' in item) throw item.failure;
        if ('outcome' in item) {
          outcome = item.outcome;
          break;
        }
        yield item.event;
      }
      this.history.push(...outcome.messages);
      const saveProblem = await this.save();
      if (saveProblem) yield { type: 'error', code: 'session-not-saved', message: saveProblem };
      const { result } = outcome;
      if (result.is_error && result.error_reason)
        yield { type: 'error', code: 'run-failed', message: result.error_reason };
      yield { type: 'finish', result };
    } finally {
      // A consumer that stops reading mid-turn stops the run too.
      if (!outcome) {
        controller.abort(new Error('the turn was abandoned'));
        await turn.return(undefined as never).catch(() => {});
      }
      unwatchHolds?.();
      this.turnController = undefined;
      this.busy = false;
      // close() during the turn left the lock for the turn's save.
      if (this.closed) await this.releaseLock();
    }
  }

  /** How the turn's tool calls that need approval are answered (approvals: ask, refuse; unset: they run). */
  private approvalFor(channel: AsyncQueue<TurnItem>): { approval?: ApprovalGate } {
    if (this.input.approvals === 'refuse') return { approval: { kind: 'refuse' } };
    if (this.input.approvals !== 'ask') return {};
    return {
      approval: {
        kind: 'ask',
        approve: (question, signal) => this.ask(channel, question, signal),
        allowedForSession: this.allowedForSession,
      },
    };
  }

  /** An approval request of the turn in flight; an abort of the run (interrupt, close) denies it. */
  private ask(
    channel: AsyncQueue<TurnItem>,
    question: ApprovalQuestion,
    signal: AbortSignal | undefined,
  ): Promise<ApprovalDecision> {
    return new Promise((resolve) => {
      let answered = false;
      const respond = (decision: ApprovalDecision) => {
        if (answered) return;
        answered = true;
        signal?.removeEventListener('abort', onAbort);
        resolve(decision);
      };
      const onAbort = () => respond({ behavior: 'deny', reason: 'the turn was interrupted' });
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      channel.push({
        event: {
          type: 'approval-request',
          request: { ...question, respond },
        },
      });
    });
  }

  /** Stops the turn in flight (its run is aborted and ends with an error result); the session goes on. */
  async interrupt(): Promise<void> {
    this.turnController?.abort(new Error('the user interrupted the turn'));
    this.elicitations.cancelPending();
  }

  /** Starts a new conversation in the same session: no history, a new id (known once a turn starts). */
  async reset(): Promise<void> {
    if (this.busy)
      throw new AgentSessionError('a turn is in progress; wait for its finish event before reset()');
    await this.releaseLock();
    this.id = randomUUID();
    this.history = [];
    this.createdAt = new Date().toISOString();
    this.started = false;
    // A new conversation is a new governed session: a kill or evidence of the last one does not carry over.
    if (this.governance) this.governance = await this.input.runtime.openGovernance();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.turnController?.abort(new Error('the session was closed'));
    this.elicitations.cancelPending();
    // A turn in flight still saves what it did; its end releases the lock.
    if (!this.busy) await this.releaseLock();
  }

  private async releaseLock(): Promise<void> {
    const lock = this.lock;
    this.lock = undefined;
    await lock?.release().catch(() => {});
  }

  /** Saves the conversation; returns what went wrong instead of throwing, so the turn's result is kept. */
  private async save(): Promise<string | undefined> {
    const { agent } = this.input;
    const file = sessionFilePath(agent.directory, this.id);
    try {
      if (!this.lock) this.lock = await SessionLock.acquire(agent.directory, this.id);
      else {
        const lost = await this.lock.lost();
        if (lost)
          return `this turn was not saved to ${file}: ${lost}, so the other chat's turns are kept there and this one's are not (session "${this.id}")`;
      }
      await writeSessionFile(agent.directory, {
        schemaVersion: SESSION_SCHEMA_VERSION,
        sessionId: this.id,
        agent: agent.config.name,
        provider: agent.config.model.provider,
        model: agent.config.model.name,
        createdAt: this.createdAt,
        updatedAt: new Date().toISOString(),
        messages: this.history,
      });
      return undefined;
    } catch (error) {
      return `the session could not be saved to ${file} (${errorMessage(error)}), so it cannot be resumed later`;
    }
  }
}
