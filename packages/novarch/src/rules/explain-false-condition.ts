import type { CompiledCondition } from './compile-condition.js';

/** The comparisons a false condition is explained by: `PATH OP LITERAL`, e.g. `action.context.amount <= 500`. */
const COMPARISON =
  /^\s*((?:action|session|evidence)(?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d+)?|"[^"\\]{0,80}"|'[^'\\]{0,80}'|true|false|null)\s*$/;
/** At most this many false comparisons are named (a rationale is one sentence). */
const MAX_NAMED = 3;

/**
 * The top-level `&&` operands of a condition (outside parentheses, brackets and strings), or the
 * whole condition when it has none.
 */
export function topLevelConjuncts(condition: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let index = 0; index < condition.length; index++) {
    const char = condition[index];
    if (quote !== undefined) {
      if (char === '\\') index++;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === '(' || char === '[' || char === '{') depth++;
    else if (char === ')' || char === ']' || char === '}') depth--;
    else if (depth === 0 && char === '&' && condition[index + 1] === '&') {
      parts.push(condition.slice(start, index));
      start = index + 2;
      index++;
    }
  }
  parts.push(condition.slice(start));
  return parts.map((part) => part.trim()).filter((part) => part.length > 0);
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'absent';
  if (typeof value === 'bigint') return String(value);
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Why a condition came out false, with the values it compared: for each top-level `&&` operand of
 * the form `PATH OP LITERAL` that is false, `PATH is VALUE, not OP LITERAL` (e.g.
 * `action.context.amount is 600, not <= 500`). Undefined when no such operand explains it (an
 * `exists()` over evidence, an `||`): the rationale then says only that the condition is false.
 * Each operand evaluated here is a single comparison, a constant number of steps.
 */
export function explainFalseCondition(
  condition: string,
  activation: Record<string, unknown>,
  compile: (expression: string) => CompiledCondition,
): string | undefined {
  const named: string[] = [];
  for (const conjunct of topLevelConjuncts(condition)) {
    const match = COMPARISON.exec(conjunct);
    if (match === null) continue;
    const [, path = '', operator = '', literal = ''] = match;
    const whole = compile(conjunct);
    const side = compile(path);
    if (!whole.ok || !side.ok) continue;
    try {
      if (whole.evaluate(activation) !== false) continue;
    } catch {
      continue;
    }
    let value: unknown;
    try {
      value = side.evaluate(activation);
    } catch {
      value = undefined;
    }
    // An amount beside a `unit` (`action.context.unit: USD`) is named with it: `600 USD`.
    const unit = typeof value === 'number' ? unitBeside(path, activation, compile) : undefined;
    const withUnit = (text: string) => (unit === undefined ? text : `${text} ${unit}`);
    named.push(`${path} is ${withUnit(describeValue(value))}, not ${operator} ${withUnit(literal)}`);
    if (named.length === MAX_NAMED) break;
  }
  return named.length === 0 ? undefined : named.join('; ');
}

/** The unit of the amount at `path` (`….amount` → the string `….unit` beside it), if any. */
function unitBeside(
  path: string,
  activation: Record<string, unknown>,
  compile: (expression: string) => CompiledCondition,
): string | undefined {
  if (!path.endsWith('.amount')) return undefined;
  const beside = compile(`${path.slice(0, -'amount'.length)}unit`);
  if (!beside.ok) return undefined;
  try {
    const unit = beside.evaluate(activation);
    return typeof unit === 'string' && /^[^\s]{1,16}$/.test(unit) ? unit : undefined;
  } catch {
    return undefined;
  }
}
