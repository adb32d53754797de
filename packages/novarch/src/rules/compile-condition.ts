import { Environment, type ParseResult } from '@marcbachmann/cel-js';
import { suggestionHint } from 'yaml-diagnostics';
import { CEL_TYPES, CEL_VARIABLES } from './cel-types.js';
import { estimateConditionSteps, type ListSizes } from './estimate-condition-cost.js';
import { registerHistory } from './history/cel-history.js';
import { findHistoryCalls, HISTORY_USAGE_HINT, type HistoryCallSite } from './history/check-history-calls.js';
import { inRuleWords, LINEAR_MATCHES, linearMatches, useLinearMatches } from './linear-matches.js';

const VARIABLES = Object.keys(CEL_VARIABLES);
const FIELD_NAMES = [...new Set(Object.values(CEL_TYPES).flatMap((type) => Object.keys(type.fields)))];

const environment = new Environment({ homogeneousAggregateLiterals: false });
for (const [name, type] of Object.entries(CEL_TYPES)) {
  environment.registerType(name, { ctor: type.ctor, fields: { ...type.fields } });
}
registerHistory(environment);
for (const [name, type] of Object.entries(CEL_VARIABLES)) environment.registerVariable(name, type);
environment.registerFunction(`string.${LINEAR_MATCHES}(string): bool`, linearMatches);

/** A condition ready to run, or why it cannot be. */
export type CompiledCondition =
  | {
      ok: true;
      /**
       * Runs the condition; throws the CEL evaluation error when it fails. A condition that calls
       * `history` gives a promise (its store queries are awaited).
       */
      evaluate: (activation: Record<string, unknown>) => unknown;
      /** The `history.*` calls it makes (their action types are literals, checked at push). */
      historyCalls: HistoryCallSite[];
      /** Whether the expression reads `evidence` (decides which evidence a verdict cites). */
      readsEvidence: boolean;
      /** An upper bound of its evaluation steps on lists of these sizes. */
      steps: (sizes: ListSizes) => number;
    }
  | {
      ok: false;
      /** `syntax`: the parser rejected it; `check`: it parsed but cannot work (unknown name, not a boolean). */
      kind: 'syntax' | 'check';
      message: string;
      /** 0-based offset in the expression where the problem is, when the CEL library knows it. */
      offset?: number;
      hint: string;
    };

const GENERAL_HINT =
  'a condition is a CEL expression over action, evidence and session that is true when the rule is satisfied, e.g. action.context.amount <= 500';

/** Parses and type-checks a condition. Never throws. */
export function compileCondition(expression: string): CompiledCondition {
  let parsed: ParseResult;
  try {
    parsed = environment.parse(expression);
  } catch (error) {
    return failure('syntax', error);
  }
  // `matches()` runs on RE2 (linear time), not on the backtracking JS RegExp the CEL library uses.
  useLinearMatches(parsed.ast);
  let checked: ReturnType<ParseResult['check']> | undefined;
  let checkError: unknown;
  try {
    checked = parsed.check();
    if (!checked.valid) checkError = checked.error;
  } catch (error) {
    checkError = error;
  }
  if (checked === undefined || !checked.valid) return failure('check', checkError);
  if (checked.type !== 'bool' && checked.type !== 'dyn') {
    return {
      ok: false,
      kind: 'check',
      message: `the condition gives a value of type ${checked.type ?? 'unknown'}, not a boolean`,
      offset: 0,
      hint: 'compare the value with something, e.g. action.context.amount <= 500',
    };
  }
  const history = findHistoryCalls(parsed.ast);
  if ('problem' in history) {
    return { ok: false, kind: 'check', ...history.problem };
  }
  return {
    ok: true,
    evaluate: (activation) => parsed(activation),
    historyCalls: history.calls,
    readsEvidence: mentions(parsed.ast, 'evidence'),
    steps: (sizes) => estimateConditionSteps(parsed.ast, sizes),
  };
}

function failure(kind: 'syntax' | 'check', error: unknown): CompiledCondition {
  const details = celErrorDetails(error);
  const offset = details.offset === undefined ? {} : { offset: details.offset };
  return { ok: false, kind, message: details.summary, ...offset, hint: hintFor(details.summary) };
}

/** The one-line summary and position of an error thrown by the CEL library (or anything else). */
export function celErrorDetails(error: unknown): { summary: string; offset?: number } {
  if (!(error instanceof Error)) return { summary: String(error) };
  const summary = 'summary' in error && typeof error.summary === 'string' ? error.summary : error.message;
  const range = 'range' in error ? error.range : undefined;
  const start =
    typeof range === 'object' && range !== null && 'start' in range && typeof range.start === 'number'
      ? range.start
      : undefined;
  const firstLine = inRuleWords(summary.split('\n')[0] ?? summary);
  return { summary: firstLine, ...(start === undefined ? {} : { offset: start }) };
}

function hintFor(summary: string): string {
  if (/\bHistory(Scope|Evidence)?\./.test(summary)) return HISTORY_USAGE_HINT;
  const unknownVariable = /^Unknown variable: (\w+)/.exec(summary)?.[1];
  if (unknownVariable !== undefined) return suggestionHint(unknownVariable, VARIABLES, 'variables');
  const unknownField = /^No such key: (\w+)/.exec(summary)?.[1];
  if (unknownField !== undefined) return suggestionHint(unknownField, FIELD_NAMES, 'fields');
  return GENERAL_HINT;
}

/** Whether the AST reads the identifier `name` anywhere. */
function mentions(node: unknown, name: string): boolean {
  if (Array.isArray(node)) return node.some((item) => mentions(item, name));
  if (typeof node !== 'object' || node === null || !('op' in node) || !('args' in node)) return false;
  if (node.op === 'id') return node.args === name;
  return mentions(node.args, name);
}
