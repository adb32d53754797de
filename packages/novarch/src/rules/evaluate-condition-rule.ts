import { type CompiledCondition, celErrorDetails, compileCondition } from './compile-condition.js';
import { CONDITION_STEP_BUDGET, type ListSizes, longestListIn } from './estimate-condition-cost.js';
import { explainFalseCondition } from './explain-false-condition.js';
import { HISTORY_CALL_STEPS } from './history/cel-history.js';
import { type RuleOutcome, satisfied, violation } from './rule-outcome.js';
import type { Rule } from './rule-set.js';

const compiled = new Map<string, CompiledCondition>();
const MAX_CACHED = 1000;

/** The list sizes of an activation, for the step budget. */
export function listSizesOf(activation: Record<string, unknown>, evidenceCount: number): ListSizes {
  return { evidence: evidenceCount, longest: longestListIn(activation) };
}

/** Compiles a condition once per expression (rules are few and long-lived). */
function compileCached(expression: string): CompiledCondition {
  let condition = compiled.get(expression);
  if (condition === undefined) {
    if (compiled.size >= MAX_CACHED) compiled.clear();
    condition = compileCondition(expression);
    compiled.set(expression, condition);
  }
  return condition;
}

/**
 * Applies a rule that has a CEL condition. `true` satisfies it; `false` violates it; an invalid
 * condition, an evaluation error or a non-boolean result also violates it (fail closed), with a
 * rationale naming the error. Cites all of `evidenceIds` when the condition reads `evidence`,
 * none otherwise: a condition sees the evidence list as a whole.
 */
export async function evaluateConditionRule(
  rule: Rule,
  condition: string,
  activation: Record<string, unknown>,
  evidenceIds: readonly string[],
  /** The sizes of the lists in `activation` (see `listSizesOf`), computed once per write. */
  sizes: ListSizes = listSizesOf(activation, evidenceIds.length),
): Promise<RuleOutcome> {
  const compiledCondition = compileCached(condition);
  if (!compiledCondition.ok) {
    return violation(rule, `condition is invalid (${compiledCondition.message}); counted as violated`, []);
  }
  const cited = compiledCondition.readsEvidence ? evidenceIds : [];
  // Bounded before it runs, by a count of steps rather than a clock: evaluation is synchronous,
  // and a verdict must not depend on how loaded the machine is.
  const steps = compiledCondition.steps(sizes);
  if (steps > CONDITION_STEP_BUDGET) {
    const history = compiledCondition.historyCalls.length > 0;
    const perCall = history ? `; each history call counts ${HISTORY_CALL_STEPS.toLocaleString('en-US')}` : '';
    const advice = history ? ', and call history outside them' : '';
    return violation(
      rule,
      `condition would take up to ${steps.toLocaleString('en-US')} steps on this evidence (${sizes.evidence} records, lists of up to ${sizes.longest} items${perCall}), over its budget of ${CONDITION_STEP_BUDGET.toLocaleString('en-US')}; counted as violated (nest fewer exists()/all() over evidence${advice})`,
      cited,
    );
  }
  let result: unknown;
  try {
    // A condition that calls `history` evaluates to a promise: its store queries are awaited.
    result = await compiledCondition.evaluate(activation);
  } catch (error) {
    const reason = celErrorDetails(error).summary;
    return violation(rule, `condition could not be evaluated (${reason}); counted as violated`, cited);
  }
  if (result === true) return satisfied(rule, 'condition is true', cited);
  if (result === false) {
    // With the values compared, when it is a comparison: `amount is 600, not <= 500`.
    const why = explainFalseCondition(condition, activation, compileCached);
    const detail = why === undefined ? 'condition is false' : `condition is false: ${why}`;
    return violation(rule, `${rule.description} (${detail})`, cited);
  }
  return violation(
    rule,
    `condition gave ${describeResult(result)}, not a boolean; counted as violated`,
    cited,
  );
}

function describeResult(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === 'number' || typeof value === 'bigint') return `the number ${String(value)}`;
  if (Array.isArray(value)) return 'a list';
  return `a value of type ${typeof value}`;
}
