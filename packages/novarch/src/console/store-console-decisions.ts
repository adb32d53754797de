import { pendingHoldState } from '../model/hold-state.js';
import type { NovarchStore } from '../model/novarch-store.js';
import type { HoldRecord, SessionRecord } from '../model/records.js';
import { whyMayNotDecide } from '../operations/check-decider.js';
import { awaitingApprovals } from '../operations/decide-hold-as-operator.js';
import type { ConsoleDecision, ConsoleOperator, DecisionOutcome, KillOutcome } from './console-deps.js';
import { ConsoleRequestError } from './console-errors.js';
import { describeHoldDecision } from './describe-hold-decision.js';

/**
 * An operator's decision on a hold they may see, checked (a rationale where one is needed, the
 * hold still waited on, the operator allowed) and stored under the operator's name; refused,
 * saying why, when it cannot be.
 */
export async function decideVisibleHold(
  store: NovarchStore,
  operator: ConsoleOperator,
  before: HoldRecord,
  decision: ConsoleDecision,
  at: Date,
): Promise<DecisionOutcome> {
  const rationale = decision.rationale?.trim() || undefined;
  if (decision.status === 'denied' && rationale === undefined) {
    throw new ConsoleRequestError(
      400,
      'A deny needs a rationale: the agent is told why its action was refused.',
    );
  }
  if (decision.status === 'skipped' && rationale === undefined) {
    throw new ConsoleRequestError(
      400,
      'Refusing and stopping the session needs a rationale: it is stored with the decision.',
    );
  }
  if (before.status !== 'pending') {
    return refused(
      before,
      `Hold ${before.id} was already ${describeHoldDecision(before)}. Nothing was changed.`,
    );
  }
  const state = pendingHoldState(before, at);
  if (state === 'abandoned' || state === 'expired') {
    const why =
      state === 'abandoned'
        ? 'no agent process has checked in on it for over 10 s'
        : `its deadline (${before.deadline}) has passed`;
    return refused(
      before,
      `Hold ${before.id} is ${state}: ${why}. No agent waits for this decision: the write will not run. Nothing was changed.`,
    );
  }
  const barred = whyMayNotDecide(
    before,
    { name: operator.name, via: 'token', groups: operator.groups, notForKeys: operator.notForKeys },
    await store.getSessionBinding(before.sessionId),
    decision.status,
  );
  if (barred !== undefined) return refused(before, barred);
  const after = await store.decideHold(
    before.id,
    decision.status,
    operator.name,
    rationale,
    decision.input === undefined ? undefined : { input: decision.input },
  );
  if (after.status === decision.status && after.decidedBy === operator.name)
    return { outcome: 'decided', hold: after };
  // An approval recorded on a hold that needs more: stored, and the hold still waits.
  if (awaitingApprovals(after, operator.name, decision.status) !== undefined)
    return { outcome: 'decided', hold: after };
  // Another operator (or the deadline) got there first: the first decision stands.
  return refused(after, `Hold ${after.id} was already ${describeHoldDecision(after)}. Nothing was changed.`);
}

function refused(hold: HoldRecord, message: string): DecisionOutcome {
  return { outcome: 'refused', hold, message };
}

/** An operator's kill of a session they may see, stored with their name; refused when it was killed first. */
export async function killVisibleSession(
  store: NovarchStore,
  operator: ConsoleOperator,
  session: SessionRecord,
  reasonText: string,
): Promise<KillOutcome> {
  const reason = reasonText.trim();
  if (reason === '')
    throw new ConsoleRequestError(400, 'A kill needs a reason: it is stored and shown to the agent.');
  if (session.killedAt !== undefined) {
    return {
      outcome: 'refused',
      session,
      message: `Session ${session.id} was already killed at ${session.killedAt}: ${session.killReason ?? 'no reason stored'}. Nothing was changed.`,
    };
  }
  const stored = `operator ${operator.name}: ${reason}`;
  await store.killSession(session.id, stored, { source: 'operator' });
  const after = (await store.getSession(session.id)) ?? session;
  if (after.killReason === stored) return { outcome: 'killed', session: after };
  return {
    outcome: 'refused',
    session: after,
    message: `Session ${after.id} was killed by someone else first at ${after.killedAt ?? '?'}: ${after.killReason ?? ''}. Nothing was changed.`,
  };
}
