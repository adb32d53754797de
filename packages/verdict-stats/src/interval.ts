/** A two-sided interval around an estimate, at a stated confidence level. */
export interface Interval {
  /** The point estimate the interval is built around. */
  estimate: number;
  lower: number;
  upper: number;
  /** The confidence level, e.g. 0.95. */
  confidence: number;
  /** How the interval was computed (e.g. `wilson`, `rule-of-three`, `cluster-wilson`). */
  method: string;
}

/** Throws a RangeError unless `confidence` is strictly between 0 and 1. */
export function checkConfidence(confidence: number): void {
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`confidence must be between 0 and 1 (exclusive), got ${confidence}`);
}

/** Throws a RangeError unless `value` is a whole number ≥ 0. */
export function checkCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0)
    throw new RangeError(`${name} must be a whole number ≥ 0, got ${value}`);
}

/** Clamps `value` into [low, high]. */
export function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
