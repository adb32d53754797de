import { type CompiledCondition, celErrorDetails, compileCondition } from './compile-condition.js';
import { type RuleOutcome, satisfied, violation } from './rule-outcome.js';
import type { Rule } from './rule-set.js';

const compiled = new Map<string, CompiledCondition>();
const MAX_CACHED = 1000;

/**
 * The most one condition may take to evaluate, in ms. Evaluation is synchronous (it cannot be
 * interrupted without a worker), and with `matches()` on RE2 it is linear in the data; a
 * condition that still took longer counts as violated, whatever it returned (fail-closed).
 */
export const CONDITION_TIME_BUDGET_MS = 100;

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
export function evaluateConditionRule(
  rule: Rule,
  condition: string,
  activation: Record<string, unknown>,
  evidenceIds: readonly string[],
): RuleOutcome {
  const compiledCondition = compileCached(condition);
  if (!compiledCondition.ok) {
    return violation(rule, `condition is invalid (${compiledCondition.message}); counted as violated`, []);
  }
  const cited = compiledCondition.readsEvidence ? evidenceIds : [];
  let result: unknown;
  const started = performance.now();
  try {
    result = compiledCondition.evaluate(activation);
  } catch (error) {
    const reason = celErrorDetails(error).summary;
    return violation(rule, `condition could not be evaluated (${reason}); counted as violated`, cited);
  }
  const elapsed = performance.now() - started;
  if (elapsed > CONDITION_TIME_BUDGET_MS) {
    return violation(
      rule,
      `condition ran out of time (${Math.round(elapsed)} ms, over its budget of ${CONDITION_TIME_BUDGET_MS} ms); counted as violated`,
      cited,
    );
  }
  if (result === true) return satisfied(rule, 'condition is true', cited);
  if (result === false) return violation(rule, `${rule.description} (condition is false)`, cited);
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
