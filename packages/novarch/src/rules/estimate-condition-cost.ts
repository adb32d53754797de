import { HISTORY_CALL_STEPS } from './history/cel-history.js';
import { isHistoryCall } from './history/check-history-calls.js';

/** The macros that evaluate their body once per element of the list they are called on. */
const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'existsOne', 'map', 'filter']);

/**
 * The most evaluation steps a condition may take on one write. A deterministic budget, not a
 * clock: the same rule on the same evidence gets the same verdict on an idle machine and on a
 * loaded one, and no condition blocks the server for long (about 10-100 ms at this bound).
 */
export const CONDITION_STEP_BUDGET = 200_000;

/** How long the lists a condition may iterate are, for `estimateConditionSteps`. */
export interface ListSizes {
  /** The number of evidence records (what `evidence.exists(…)` iterates). */
  evidence: number;
  /** The longest list or map anywhere in the activation (what any other comprehension may iterate). */
  longest: number;
}

/**
 * An upper bound of the steps evaluating `ast` takes: each node is a step, and a comprehension
 * (`exists`, `all`, `map`, …) runs its body once per element of its list (the evidence count
 * over `evidence`, the longest list of the activation over anything else). Nested
 * comprehensions multiply: that is what made a 2-level rule over 2,000 evidence rows block the
 * event loop for seconds.
 */
export function estimateConditionSteps(ast: unknown, sizes: ListSizes): number {
  const steps = (node: unknown): number => {
    if (Array.isArray(node)) return node.reduce((sum: number, child) => sum + steps(child), 0);
    if (typeof node !== 'object' || node === null || !('op' in node) || !('args' in node)) return 0;
    const args = node.args;
    // A history call is one store query: it costs a fixed, large number of steps.
    if (isHistoryCall(node) && Array.isArray(args)) return HISTORY_CALL_STEPS + steps(args[2]);
    if (
      node.op === 'rcall' &&
      Array.isArray(args) &&
      typeof args[0] === 'string' &&
      COMPREHENSIONS.has(args[0])
    ) {
      const receiver: unknown = args[1];
      const overEvidence =
        typeof receiver === 'object' &&
        receiver !== null &&
        'op' in receiver &&
        receiver.op === 'id' &&
        'args' in receiver &&
        receiver.args === 'evidence';
      const length = overEvidence ? sizes.evidence : sizes.longest;
      return 1 + steps(receiver) + Math.max(1, length) * (1 + steps(args[2]));
    }
    return 1 + steps(args);
  };
  return steps(ast);
}

/**
 * The length of the longest list anywhere in the activation (the evidence list, and lists inside
 * tool inputs and outputs): what any comprehension of a condition may iterate over.
 */
export function longestListIn(activation: unknown): number {
  let longest = 0;
  const pending: unknown[] = [activation];
  const seen = new Set<object>();
  for (let value = pending.pop(); value !== undefined || pending.length > 0; value = pending.pop()) {
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      longest = Math.max(longest, value.length);
      for (const child of value) pending.push(child);
    } else if (value instanceof Map) {
      longest = Math.max(longest, value.size);
      for (const child of value.values()) pending.push(child);
    } else {
      const entries = Object.values(value);
      longest = Math.max(longest, entries.length);
      for (const child of entries) pending.push(child);
    }
  }
  return longest;
}
