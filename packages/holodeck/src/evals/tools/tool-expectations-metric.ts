import type { ToolCall, ToolResult } from '../../backends/contract/index.js';
import type { ExpectedTool } from '../../config/index.js';
import { isRecord } from '../../support.js';
import type { Metric, MetricOutcome } from '../metric.js';
import { classifyToolCall, describeToolCallOutcome } from './classify-tool-call.js';
import { matchesToolName } from './match-tool-name.js';

function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** One expected argument against the actual value: literal, `{regex}` or `{fuzzy}`. */
export function argumentMatches(expected: unknown, actual: unknown): boolean {
  if (isRecord(expected) && Object.keys(expected).length === 1) {
    if (actual === undefined && ('regex' in expected || 'fuzzy' in expected)) return false;
    const text = typeof actual === 'string' ? actual : JSON.stringify(actual);
    if (typeof expected.regex === 'string')
      return new RegExp(expected.regex, typeof expected.flags === 'string' ? expected.flags : undefined).test(
        text,
      );
    if (typeof expected.fuzzy === 'string') return normalise(text).includes(normalise(expected.fuzzy));
  }
  return deepEqual(expected, actual);
}

/** The name an expectation means, once MCP short names are resolved at run start (identity before). */
export type ToolNameResolver = (name: string) => string;

function callMatches(
  expectation: Exclude<ExpectedTool, string>,
  call: ToolCall,
  resolve: ToolNameResolver,
): boolean {
  if (!matchesToolName(resolve(expectation.name), call.name)) return false;
  return Object.entries(expectation.args ?? {}).every(([key, value]) =>
    argumentMatches(value, call.arguments[key]),
  );
}

function describeExpectation(expectation: Exclude<ExpectedTool, string>): string {
  const args = expectation.args ? ` with ${JSON.stringify(expectation.args)}` : '';
  const count = expectation.count !== undefined ? ` exactly ${expectation.count}×` : '';
  return `${expectation.name}${args}${count}`;
}

/**
 * Checks `expected_tools` and `forbidden_tools`; score = share of expectations met. An expected
 * call counts only when the tool ran: a call that was refused (allowed_tools, Bash limits,
 * permissions, Novarch) or failed argument validation does not, and the reason names it. A
 * forbidden tool fails the check as soon as the agent calls it, refused or not.
 */
export function evaluateToolExpectations(
  expected: readonly ExpectedTool[],
  forbidden: readonly string[],
  calls: readonly ToolCall[],
  results: readonly ToolResult[] = [],
  resolve: ToolNameResolver = (name) => name,
): MetricOutcome {
  const outcomes = calls.map((call) => ({ call, outcome: classifyToolCall(call, results) }));
  const ran = outcomes.filter((entry) => entry.outcome === 'ran').map((entry) => entry.call);
  const unmet: string[] = [];
  for (const entry of expected) {
    const expectation = typeof entry === 'string' ? { name: entry } : entry;
    const matching = ran.filter((call) => callMatches(expectation, call, resolve)).length;
    const met = expectation.count === undefined ? matching > 0 : matching === expectation.count;
    if (met) continue;
    const notCounted = outcomes.flatMap(({ call, outcome }) =>
      outcome !== 'ran' && callMatches(expectation, call, resolve) ? [describeToolCallOutcome(outcome)] : [],
    );
    const why = notCounted.length
      ? `; not counted: ${notCounted.length} call(s) ${notCounted.join(', ')}`
      : '';
    unmet.push(`expected ${describeExpectation(expectation)}, matched ${matching} call(s) that ran${why}`);
  }
  for (const name of forbidden) {
    const used = calls.filter((call) => matchesToolName(resolve(name), call.name)).length;
    if (used) unmet.push(`forbidden ${name} was called ${used}×`);
  }
  const total = expected.length + forbidden.length;
  const score = total === 0 ? 1 : (total - unmet.length) / total;
  const called = outcomes.length
    ? outcomes
        .map(({ call, outcome }) =>
          outcome === 'ran' ? call.name : `${call.name} (${describeToolCallOutcome(outcome)})`,
        )
        .join(', ')
    : 'no tools';
  return {
    name: 'tool-calls',
    type: 'tool-calls',
    score,
    threshold: 1,
    passed: unmet.length === 0,
    reason: unmet.length
      ? `${unmet.join('; ')} (called: ${called})`
      : `all ${total} tool expectation(s) met (called: ${called})`,
  };
}

/** The tool expectations of a case (or turn) as a Metric. */
export function createToolExpectationsMetric(
  expected: readonly ExpectedTool[],
  forbidden: readonly string[],
  resolve: ToolNameResolver = (name) => name,
): Metric {
  return {
    name: 'tool-calls',
    type: 'tool-calls',
    async evaluate(input) {
      return evaluateToolExpectations(expected, forbidden, input.toolCalls, input.toolResults, resolve);
    },
  };
}
