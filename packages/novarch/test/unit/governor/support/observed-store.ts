import type { EvidenceRecord, HoldRecord, VerdictRecord } from '../../../../src/index.js';
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
  /**
   * When an operator kills the session (`novarch sessions kill` from another process): while the
   * write is judged (as the engine reads the evidence), while it is held (at the hold's first
   * poll), or right before its release (after the judge's pass or the operator's approval).
   */
  killDuring: 'none' | 'judge' | 'hold' | 'release';
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
  /** Calls whose script killed the session while they were judged, held or released. */
  readonly killedFor = new Set<string>();
  /** Actions the store let run (`releaseAction` released them): the only writes that may run. */
  readonly releasedActions = new Set<string>();
  readonly scripts = new Map<string, CallScript>();
  private readonly polls = new Map<string, number>();
  sessionId = '';

  private scriptOf(actionId: string): CallScript | undefined {
    const callId = this.callOfAction.get(actionId);
    return callId === undefined ? undefined : this.scripts.get(callId);
  }
  private async killFor(actionId: string): Promise<void> {
    const callId = this.callOfAction.get(actionId);
    if (callId === undefined || this.killedFor.has(callId)) return;
    await this.inner.killSession(this.sessionId, `operator ana: stop ${callId}`);
    this.killedFor.add(callId);
    this.operatorKilled = true;
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
  override async proposeAction(action: Parameters<FaultyStore['proposeAction']>[0]) {
    const proposal = await super.proposeAction(action);
    const callId = callIdOf(proposal.action.input);
    if (callId !== undefined) this.callOfAction.set(proposal.action.id, callId);
    // The kill check, the action and the evidence are stored; the judgement is under way: a kill
    // now lands between the proposal's kill check and the release's.
    if (proposal.open && this.scriptOf(proposal.action.id)?.killDuring === 'judge')
      await this.killFor(proposal.action.id);
    return proposal;
  }
  override async releaseAction(release: Parameters<FaultyStore['releaseAction']>[0]) {
    // Between the judge's pass (or the operator's approval) and the release: the release must see it.
    if (this.scriptOf(release.actionId)?.killDuring === 'release') await this.killFor(release.actionId);
    const result = await super.releaseAction(release);
    if (release.verdict !== undefined) this.verdictOfAction.set(release.actionId, 'pass');
    if (result.released) this.releasedActions.add(release.actionId);
    return result;
  }
  override async recordVerdict(verdict: Omit<VerdictRecord, 'id' | 'decidedAt'>) {
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
    if (pending && script?.killDuring === 'hold' && poll === 0) await this.killFor(pending.actionId);
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
