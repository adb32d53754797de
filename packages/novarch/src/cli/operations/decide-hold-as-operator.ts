import type { NovarchStore } from '../../model/novarch-store.js';
import type { HoldRecord } from '../../model/records.js';
import { OperationRefusedError, OperatorUsageError } from '../operator-errors.js';
import { requireHold } from './hold-operations.js';

/** What an operator decides on a hold. */
export interface OperatorDecision {
  holdId: string;
  status: 'approved' | 'denied' | 'skipped';
  operator: string;
  rationale?: string | undefined;
}

/** How a decided hold reads: `approved by ana at 2026-…: "reason"`. */
export function describeDecision(hold: HoldRecord): string {
  const by = hold.decidedBy === undefined ? '' : ` by ${hold.decidedBy}`;
  const at = hold.decidedAt === undefined ? '' : ` at ${hold.decidedAt}`;
  const why = hold.rationale === undefined ? '' : `: ${hold.rationale}`;
  return `${hold.status}${by}${at}${why}`;
}

/**
 * Decides a pending hold as an operator. A deny needs a rationale (the agent is told it). A hold
 * already decided is refused with what it already was; so is a decision that arrives after the
 * deadline, which the store records as `timed_out` (the agent has already refused the write).
 */
export async function decideHoldAsOperator(
  store: NovarchStore,
  decision: OperatorDecision,
  storePath: string,
): Promise<HoldRecord> {
  const rationale = decision.rationale?.trim() ? decision.rationale.trim() : undefined;
  if (decision.status === 'denied' && rationale === undefined) {
    throw new OperatorUsageError(
      'novarch holds deny needs --rationale TEXT: the agent is told why its action was refused.',
    );
  }
  const operator = decision.operator.trim();
  if (operator === '') {
    throw new OperatorUsageError('No operator name: pass --operator NAME (or set USER).');
  }
  const before = await requireHold(store, decision.holdId, storePath);
  if (before.status !== 'pending') {
    throw new OperationRefusedError(
      `Hold ${before.id} was already ${describeDecision(before)}. Nothing was changed.`,
    );
  }
  const after = await store.decideHold(before.id, decision.status, operator, rationale);
  const ours = after.status === decision.status && after.decidedBy === operator;
  if (!ours) {
    // Another operator got there first, or the deadline passed (stored as timed_out).
    throw new OperationRefusedError(
      `Hold ${after.id} was not ${decision.status}: it is ${describeDecision(after)}.`,
    );
  }
  return after;
}
