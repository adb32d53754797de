import { OperationRefusedError, OperatorUsageError } from '../errors.js';
import { pendingHoldState } from '../model/hold-state.js';
import type { NovarchStore } from '../model/novarch-store.js';
import type { HoldRecord } from '../model/records.js';
import { type Decider, whyMayNotDecide } from './check-decider.js';
import { asSentence, sinceLastCheckIn, whyNothingWaits } from './describe-hold-state.js';
import { requireHold } from './hold-operations.js';

/** What an operator decides on a hold. */
export interface OperatorDecision {
  holdId: string;
  status: 'approved' | 'denied' | 'skipped';
  operator: string;
  rationale?: string | undefined;
  /** Close an abandoned or expired hold anyway (stored as `timed_out`; nothing runs). */
  force?: boolean | undefined;
  /** How the operator was identified, and the duties of their token (default: a local operator). */
  via?: Decider['via'] | undefined;
  groups?: readonly string[] | undefined;
  notForKeys?: readonly string[] | undefined;
  /** Approve with edit: the input the write runs with (re-judged by the agent's gate before it runs). */
  input?: Record<string, unknown> | undefined;
}

/**
 * The stored decision; `forced` when `--force` closed a hold nothing waited on; `awaiting` when
 * this approval was recorded and the hold still needs that many more (from other operators).
 */
export interface OperatorDecisionResult {
  hold: HoldRecord;
  forced?: 'abandoned' | 'expired';
  awaiting?: number;
}

const COMMAND: Record<OperatorDecision['status'], string> = {
  approved: 'approve',
  denied: 'deny',
  skipped: 'skip',
};

/** How a decided hold reads: `approved by ana at 2026-…: reason`. */
export function describeDecision(hold: HoldRecord): string {
  const by = hold.decidedBy === undefined ? '' : ` by ${hold.decidedBy}`;
  const at = hold.decidedAt === undefined ? '' : ` at ${hold.decidedAt}`;
  const why = hold.rationale === undefined ? '' : `: ${hold.rationale}`;
  return `${hold.status}${by}${at}${why}`;
}

/**
 * Decides a pending hold as an operator. A deny needs a rationale (the agent is told it). A hold
 * already decided is refused with what it already was.
 *
 * A decision only means something to a process that waits on the hold, so one on an abandoned
 * hold (its agent stopped checking in) or an expired one (past its deadline) is refused: nothing
 * would run the write, and an "approved" in the audit would be false. With `force` such a hold is
 * closed instead, as `timed_out` under the operator's name, with a rationale that names the
 * command, why nothing waited and the operator's own rationale. It is never stored as approved,
 * so the audit never shows an approved write that did not run, and an agent that was merely
 * stalled and comes back finds a timeout (fail-closed), not an approval.
 *
 * `now` is the operator's clock, against which the hold's state is judged.
 */
export async function decideHoldAsOperator(
  store: NovarchStore,
  decision: OperatorDecision,
  storePath: string,
  now: Date,
): Promise<OperatorDecisionResult> {
  const { rationale, operator } = checkedDecision(decision);
  const before = await requireHold(store, decision.holdId, storePath);
  if (before.status !== 'pending') {
    throw new OperationRefusedError(
      `Hold ${before.id} was already ${asSentence(describeDecision(before))} Nothing was changed.`,
    );
  }
  const decider: Decider = {
    name: operator,
    via: decision.via ?? 'local',
    groups: decision.groups,
    notForKeys: decision.notForKeys,
  };
  const barred = whyMayNotDecide(
    before,
    decider,
    await store.getSessionBinding(before.sessionId),
    decision.status,
  );
  if (barred !== undefined) throw new OperationRefusedError(barred);
  const state = pendingHoldState(before, now);
  if (state === 'abandoned' || state === 'expired') {
    if (decision.force !== true) {
      throw new OperationRefusedError(
        `Hold ${before.id} is ${state}: ${whyNothingWaits(before, state)}.\n` +
          'No agent waits for this decision: the write will not run, whatever you decide. ' +
          'If it is still wanted, the agent must retry the action.\n' +
          'To close the hold anyway, rerun with --force: it is stored as timed_out under your name, ' +
          'and nothing runs.\nNothing was changed.',
      );
    }
    return {
      hold: await forceClose(store, before, state, decision.status, operator, rationale),
      forced: state,
    };
  }
  const after = await store.decideHold(
    before.id,
    decision.status,
    operator,
    rationale,
    decision.input === undefined ? undefined : { input: decision.input },
  );
  const awaiting = awaitingApprovals(after, operator, decision.status);
  if (awaiting !== undefined) return { hold: after, awaiting };
  const ours = after.status === decision.status && after.decidedBy === operator;
  if (!ours) {
    // Another operator got there first, or the deadline passed (stored as timed_out).
    throw new OperationRefusedError(
      `Hold ${after.id} was not ${decision.status}: it is ${asSentence(describeDecision(after))}`,
    );
  }
  return { hold: after };
}

/** The decision's rationale and operator, trimmed; refuses a deny without rationale, an edit of a non-approval, no operator. */
function checkedDecision(decision: OperatorDecision): { rationale: string | undefined; operator: string } {
  const rationale = decision.rationale?.trim() ? decision.rationale.trim() : undefined;
  if (decision.status === 'denied' && rationale === undefined) {
    throw new OperatorUsageError(
      'novarch holds deny needs --rationale TEXT: the agent is told why its action was refused.',
    );
  }
  if (decision.input !== undefined && decision.status !== 'approved') {
    throw new OperatorUsageError(
      `novarch holds ${COMMAND[decision.status]} takes no edited input: only an approval may change what runs (novarch holds approve ${decision.holdId} --input JSON).`,
    );
  }
  const operator = decision.operator.trim();
  if (operator === '') {
    throw new OperatorUsageError('No operator name: pass --operator NAME (or set USER).');
  }
  return { rationale, operator };
}

/**
 * Closes an abandoned or expired hold as `timed_out` under the operator's name, the rationale
 * naming the command, why nothing waited and the operator's own rationale.
 */
async function forceClose(
  store: NovarchStore,
  before: HoldRecord,
  state: 'abandoned' | 'expired',
  status: OperatorDecision['status'],
  operator: string,
  rationale: string | undefined,
): Promise<HoldRecord> {
  const why =
    state === 'abandoned'
      ? `no agent process had checked in ${sinceLastCheckIn(before)}`
      : `the deadline (${before.deadline}) had passed`;
  const stored =
    `Closed with novarch holds ${COMMAND[status]} --force: ${why}, so the write did not run.` +
    (rationale === undefined ? '' : ` Rationale: ${rationale}`);
  const closed = await store.decideHold(before.id, 'timed_out', operator, stored);
  if (closed.status !== 'timed_out' || closed.decidedBy !== operator || closed.rationale !== stored) {
    throw new OperationRefusedError(
      `Hold ${closed.id} was not closed: it is ${asSentence(describeDecision(closed))}`,
    );
  }
  return closed;
}

/**
 * How many approvals a hold still needs after this operator's approval was recorded on it (it
 * stays pending); undefined when that is not what happened.
 */
export function awaitingApprovals(
  hold: HoldRecord,
  operator: string,
  status: OperatorDecision['status'],
): number | undefined {
  if (status !== 'approved' || hold.status !== 'pending') return undefined;
  if (!hold.approvals?.some((approval) => approval.operator === operator)) return undefined;
  const missing = (hold.policy?.approvals ?? 1) - hold.approvals.length;
  return missing > 0 ? missing : undefined;
}
