import type { ActionRecord, EvidenceRecord, HoldRecord, VerdictRecord } from '../../../../src/index.js';
import { FaultyStore } from '../../gate/support/faulty-store.js';
import { LOOKUP } from './governor-world.js';

// The store of the governor's property test: a FaultyStore around the real one that also plays the
// scripted world around each refund call (keyed by the `call_id` in its input) and records what
// the engine learned, so the oracle does not rely on the governor's own account.

/** What the scripted world does around one refund call. */
export interface CallScript {
  /** The operator's decision, or none (nobody comes: the call is aborted instead). */
  decision: 'approved' | 'denied' | 'skipped' | 'none';
  afterPolls: number;
  /** The hold's deadline is already past: the engine times it out at once. */
  pastDeadline: boolean;
  /** Aborted at poll `afterPolls` of its hold. */
  abortWhileHeld?: AbortController;
  killWhileJudged: boolean;
}

/** How the engine phrases a timeout at the deadline (its abort timeout says something else). */
const DEADLINE_RATIONALE = 'no operator decision before the deadline';

function callIdOf(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || !('call_id' in input)) return undefined;
  return typeof input.call_id === 'string' ? input.call_id : undefined;
}

/** A FaultyStore that plays the scripted world and records what the engine learned. */
export class ObservedStore extends FaultyStore {
  readonly callOfAction = new Map<string, string>();
  readonly verdictOfAction = new Map<string, VerdictRecord['verdict']['kind']>();
  readonly approvedActions = new Set<string>();
  /** Customers with a successful lookup in the session's evidence. */
  readonly lookedUp = new Set<string>();
  /** Stops the engine reported (judge kill, skip, deadline timeout): each must latch the governor. */
  stops = 0;
  operatorKilled = false;
  readonly scripts = new Map<string, CallScript>();
  private readonly polls = new Map<string, number>();
  sessionId = '';

  private scriptOf(actionId: string): CallScript | undefined {
    const callId = this.callOfAction.get(actionId);
    return callId === undefined ? undefined : this.scripts.get(callId);
  }
  private seen(hold: HoldRecord | undefined): void {
    if (hold?.status === 'approved') this.approvedActions.add(hold.actionId);
    if (hold?.status === 'skipped') this.stops++;
    if (hold?.status === 'timed_out' && hold.rationale === DEADLINE_RATIONALE) this.stops++;
  }

  override async recordEvidence(evidence: Omit<EvidenceRecord, 'id'>) {
    const record = await super.recordEvidence(evidence);
    const input = record.input;
    if (
      record.toolName === LOOKUP &&
      !record.isError &&
      typeof input === 'object' &&
      input !== null &&
      'customer_id' in input
    )
      this.lookedUp.add(String(input.customer_id));
    return record;
  }
  override async recordAction(action: Omit<ActionRecord, 'id' | 'createdAt'>) {
    const record = await super.recordAction(action);
    const callId = callIdOf(record.input);
    if (callId !== undefined) this.callOfAction.set(record.id, callId);
    return record;
  }
  override async recordVerdict(verdict: Omit<VerdictRecord, 'id' | 'decidedAt'>) {
    if (this.scriptOf(verdict.actionId)?.killWhileJudged) {
      await this.inner.killSession(this.sessionId, 'operator ana: stop while judged');
      this.operatorKilled = true;
    }
    const record = await super.recordVerdict(verdict);
    this.verdictOfAction.set(record.actionId, record.verdict.kind);
    if (record.verdict.kind === 'kill') this.stops++;
    return record;
  }
  override createHold(actionId: string, sessionId: string, deadline: Date) {
    const past = this.scriptOf(actionId)?.pastDeadline === true;
    return super.createHold(actionId, sessionId, past ? new Date(Date.now() - 1000) : deadline);
  }
  override async getHold(id: string) {
    const poll = this.polls.get(id) ?? 0;
    this.polls.set(id, poll + 1);
    const pending = await this.inner.getHold(id);
    const script = pending && this.scriptOf(pending.actionId);
    if (script && poll === script.afterPolls) {
      if (script.decision !== 'none')
        await this.inner.decideHold(id, script.decision, 'operator-ana', `scripted ${script.decision}`);
      script.abortWhileHeld?.abort();
    }
    const hold = await super.getHold(id);
    this.seen(hold);
    return hold;
  }
  override async decideHold(...args: Parameters<FaultyStore['decideHold']>) {
    const hold = await super.decideHold(...args);
    this.seen(hold);
    return hold;
  }
}
