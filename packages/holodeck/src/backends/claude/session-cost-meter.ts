/**
 * Each turn's own cost in a CLI session. The CLI's `result` message carries `total_cost_usd`, the
 * running total of its session, not the turn's cost: after three turns of $0.03 it says $0.03,
 * $0.06, $0.09. The meter keeps the last total of the session and answers the difference. A new
 * session id (the CLI's `/clear`) starts again from zero, as the CLI's total does; a resumed
 * session starts from the total its transcript saved, which `resumedAt` records (or, when the CLI
 * could not say it, the first turn's cost is unknown rather than the whole history's).
 */
export class SessionCostMeter {
  private last: { sessionId: string; total: number | null } | undefined;

  /** The resumed session's running total before its first turn here; null when unknown. */
  resumedAt(sessionId: string, total: number | null): void {
    this.last = { sessionId, total };
  }

  /** The cost of the turn whose result reported `total` for `sessionId`; null when unknowable. */
  turnCost(sessionId: string, total: number): number | null {
    const before = this.last?.sessionId === sessionId ? this.last.total : 0;
    this.last = { sessionId, total };
    if (before === null) return null;
    // Rounded far below a cent's fraction: a difference of floats carries noise (0.009 - 0.0045).
    return Math.max(0, Math.round((total - before) * 1e10) / 1e10);
  }
}
