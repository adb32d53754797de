import type { HoldRecord } from '../model/records.js';

/** How a decided hold reads to an operator: `approved by ana at 2026-…: checked with finance`. */
export function describeHoldDecision(hold: HoldRecord): string {
  const by = hold.decidedBy === undefined ? '' : ` by ${hold.decidedBy}`;
  const at = hold.decidedAt === undefined ? '' : ` at ${hold.decidedAt}`;
  const why = hold.rationale === undefined ? '' : `: ${hold.rationale}`;
  return `${hold.status.replace('_', ' ')}${by}${at}${why}`;
}
