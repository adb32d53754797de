import { decideNextAttempt, type SequentialPlan } from 'verdict-stats';
import type { RepeatSetting } from '../config/schema/evaluation-config-schema.js';
import { formatPercent } from './report/format-units.js';
import type { RepeatStop } from './report/run-report.js';

/** How many attempts a case gets: a fixed number, or adaptive (`repeat: auto`). */
export type RepeatPlan = { kind: 'fixed'; attempts: number } | { kind: 'auto'; min: number; max: number };

/** Defaults of `repeat: auto`. */
export const AUTO_MIN = 3;
export const AUTO_MAX = 10;

/** The `--repeat` flag: a whole number, or `auto`. */
export type RepeatOption = number | 'auto';

/**
 * The plan of a case: `--repeat` first, then the case's `repeat`, then `evaluations.repeat`, else
 * one attempt. `--repeat auto` keeps the min/max of the case's (or the suite's) auto setting.
 */
export function repeatPlan(
  flag: RepeatOption | undefined,
  caseSetting: RepeatSetting | undefined,
  suiteSetting: RepeatSetting | undefined,
): RepeatPlan {
  const autoOf = (setting: RepeatSetting | undefined) =>
    typeof setting === 'object' ? setting.auto : undefined;
  if (typeof flag === 'number') return { kind: 'fixed', attempts: flag };
  const setting = flag === 'auto' ? 'auto' : (caseSetting ?? suiteSetting ?? 1);
  if (typeof setting === 'number') return { kind: 'fixed', attempts: setting };
  const bounds = autoOf(setting) ?? autoOf(caseSetting) ?? autoOf(suiteSetting);
  return { kind: 'auto', min: bounds?.min ?? AUTO_MIN, max: bounds?.max ?? AUTO_MAX };
}

/** Attempts a plan starts before any decision. */
export function initialAttempts(plan: RepeatPlan): number {
  return plan.kind === 'fixed' ? plan.attempts : plan.min;
}

/** Most attempts a plan may run. */
export function maximumAttempts(plan: RepeatPlan): number {
  return plan.kind === 'fixed' ? plan.attempts : plan.max;
}

/**
 * After `finished` graded attempts (`passed` of them passed) of an auto case: the stop, with its
 * reason in words, or undefined to run another. An attempt that errored stops it at once (the
 * case is errored whatever follows).
 */
export function autoStop(
  plan: Extract<RepeatPlan, { kind: 'auto' }>,
  counts: { passed: number; finished: number; errored: number; run: number },
  threshold: number,
  confidence: number,
): RepeatStop | undefined {
  const base = { attempts: counts.run, min: plan.min, max: plan.max };
  if (counts.errored > 0)
    return { ...base, rule: 'decided', reason: `stopped after ${counts.run}: an attempt errored` };
  const sequential: SequentialPlan = { min: plan.min, max: plan.max, threshold, confidence };
  const decision = decideNextAttempt(counts.passed, counts.finished, sequential);
  if (decision.action === 'continue') return undefined;
  const level = formatPercent(confidence);
  const mark = formatPercent(threshold);
  if (decision.reason === 'decided') {
    const side = decision.passes ? `≥ ${mark}` : `< ${mark}`;
    return { ...base, rule: 'decided', reason: `decided after ${counts.run}: ${side} with ${level}` };
  }
  return {
    ...base,
    rule: 'max',
    reason: `stopped at the cap of ${plan.max}: still undecided at ${level} (${counts.passed}/${counts.finished} passed, needs ${mark})`,
  };
}
