/** What a decision's span and latency are labelled with. */
export interface DecisionAttributes {
  tenantId: string;
  teamId: string;
  agentId: string;
  actionType: string;
}

/**
 * What the engine reports to OpenTelemetry: a span per gate decision (with its latency in the
 * `novarch.decision.duration` histogram), a span per LLM judge call (its failures counted in
 * `novarch.judge.errors`), a span per hold wait, and kills counted in `novarch.kills`. The pending
 * holds gauge is read from the store (`observePendingHolds`). Only the interface lives here: an
 * engine without telemetry loads no OpenTelemetry code (`start-novarch-telemetry.ts` does).
 */
export interface NovarchTelemetry {
  /** Runs `work` as the decision's span; `outcome` names the verdict it reached (`pass`, `kill`, `hold`). */
  decision<T>(
    attributes: DecisionAttributes,
    work: () => Promise<T>,
    outcome: (result: T) => string,
  ): Promise<T>;
  /** Runs one LLM judge call as a span; `failed` tells an undecided answer (an error thrown counts too). */
  judgeCall<T>(rules: number, work: () => Promise<T>, failed: (result: T) => boolean): Promise<T>;
  /** Runs the wait on a hold as a span, ending with the hold's status. */
  holdWait<T>(holdId: string, work: () => Promise<T>, status: (result: T) => string): Promise<T>;
  /** Counts a kill (`source`: judge, operator, hold_timed_out, …). */
  killed(source: string): void;
  /** Reports the pending holds the store has, each time metrics are exported. */
  observePendingHolds(count: () => Promise<number>): void;
  /** Exports what is buffered, then stops. */
  shutdown(): Promise<void>;
}
