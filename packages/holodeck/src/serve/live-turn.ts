import type {
  AgentSession,
  ApprovalDecision,
  ApprovalRequest,
  ExecutionResult,
  PendingHold,
  SessionEvent,
} from '../backends/contract/index.js';
import { errorMessage } from '../support.js';
import type { TurnObserver } from './turn-observer.js';
import { turnOutcome } from './turn-outcome.js';

/**
 * One turn of a served session, running in the background: the backend's events are kept in
 * order and read by one HTTP response at a time. A response stops reading at an interrupt (an
 * approval request, a Novarch hold) and a later request (the answer, an AG-UI resume) reads on
 * from there, so a turn outlives the request that started it.
 */
export class LiveTurn {
  private readonly events: SessionEvent[] = [];
  private cursor = 0;
  private wake: (() => void) | undefined;
  private ended = false;
  private readonly approvals = new Map<string, ApprovalRequest>();
  private readonly holds = new Map<string, PendingHold>();
  private readonly resolvedHolds = new Set<string>();
  private readonly toolCalls = new Map<string, { name: string; arguments: Record<string, unknown> }>();
  /** The turn's result, once it finished. */
  result: ExecutionResult | undefined;
  /** Why the turn failed without a result (the agent process died). */
  failure: string | undefined;
  readonly done: Promise<void>;
  readonly startedAt = Date.now();
  private readonly timer: NodeJS.Timeout | undefined;
  /** Spans and metrics of the turn (OpenTelemetry), when they are on. */
  private readonly observer: TurnObserver | undefined;
  /** Why serve stopped the turn before its result, when it did. */
  private stoppedBy: 'limit' | 'interrupted' | undefined;

  constructor(
    private readonly session: AgentSession,
    message: string,
    options: { timeoutMs?: number; observer?: TurnObserver } = {},
  ) {
    this.observer = options.observer;
    this.done = this.pump(message);
    if (options.timeoutMs !== undefined) {
      this.timer = setTimeout(() => void this.interrupt('limit'), options.timeoutMs);
      this.timer.unref();
    }
  }

  private async pump(message: string): Promise<void> {
    try {
      for await (const event of this.session.sendStreaming(message)) {
        this.observer?.event(event);
        if (event.type === 'tool-call')
          this.toolCalls.set(event.callId, { name: event.name, arguments: event.arguments });
        if (event.type === 'approval-request') this.approvals.set(event.request.callId, event.request);
        if (event.type === 'hold-pending') this.holds.set(event.hold.holdId, event.hold);
        if (event.type === 'hold-resolved') {
          this.holds.delete(event.hold.holdId);
          this.resolvedHolds.add(event.hold.holdId);
        }
        if (event.type === 'finish') this.result = event.result;
        this.push(event);
      }
    } catch (error) {
      this.failure = errorMessage(error);
      if (this.events.at(-1)?.type !== 'error')
        this.push({ type: 'error', code: 'process-failed', message: this.failure, cause: error });
    } finally {
      this.observer?.end({
        outcome: turnOutcome(this.result, this.stoppedBy),
        ...(this.failure === undefined ? {} : { failure: this.failure }),
      });
      if (this.timer) clearTimeout(this.timer);
      this.approvals.clear();
      this.holds.clear();
      this.ended = true;
      this.wake?.();
    }
  }

  private push(event: SessionEvent): void {
    this.events.push(event);
    this.wake?.();
  }

  /** The next event not read yet; undefined once the turn ended and everything was read. */
  async next(): Promise<SessionEvent | undefined> {
    while (this.cursor >= this.events.length) {
      if (this.ended) return undefined;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
    const event = this.events[this.cursor];
    this.cursor += 1;
    return event;
  }

  /** Whether events wait to be read (a turn that ended while nobody read it still has them). */
  get hasUnread(): boolean {
    return this.cursor < this.events.length;
  }

  /** Whether a hold of this turn was decided already (the reader that resumes will see how). */
  holdWasResolved(holdId: string): boolean {
    return this.resolvedHolds.has(holdId);
  }

  /** Whether the turn ended (its `finish` or failure is among the events). */
  get finished(): boolean {
    return this.ended;
  }

  /** A tool call of this turn by its id (a reader that starts after the call still names it). */
  toolCall(callId: string): { name: string; arguments: Record<string, unknown> } | undefined {
    return this.toolCalls.get(callId);
  }

  /** The approval requests waiting for an answer. */
  pendingApprovals(): ApprovalRequest[] {
    return [...this.approvals.values()];
  }

  /** The Novarch holds waiting for an operator. */
  pendingHolds(): PendingHold[] {
    return [...this.holds.values()];
  }

  /** Whether the turn waits for someone (an approval answer or an operator): nobody reads it now. */
  get parked(): boolean {
    return this.approvals.size > 0 || this.holds.size > 0;
  }

  /** Answers a pending approval; false when no request of that call id waits. */
  answer(callId: string, decision: ApprovalDecision): boolean {
    const request = this.approvals.get(callId);
    if (!request) return false;
    this.approvals.delete(callId);
    request.respond(decision);
    return true;
  }

  /**
   * Stops the turn (a client disconnect, DELETE, shutdown; `limit`: the wall-clock limit); it ends
   * with `finish`.
   */
  async interrupt(reason: 'limit' | 'interrupted' = 'interrupted'): Promise<void> {
    if (this.ended) return;
    // A turn whose result arrived already is not stopped by a late interrupt.
    if (this.result === undefined) this.stoppedBy ??= reason;
    await this.session.interrupt();
  }
}
