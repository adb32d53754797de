import { UsageError } from '../errors.js';
import { withoutFunctionToolsPrefix } from '../tool-name.js';
import { REDACTED, redactText } from './report/redact-agent-config.js';
import type { CaseReport, RunReport } from './report/run-report.js';

/** Options of `caseFromRun` (`holodeck test add --from-run`). */
export interface CaseFromRunOptions {
  /** The new case's name. */
  name: string;
  /** `expected_tools` with each call's literal arguments, not just the names. */
  withArgs?: boolean;
  /** The final answer becomes a `not-contains` check (the answer must differ), not `ground_truth`. */
  asCounterexample?: boolean;
  /** Values never written into agent.yaml (the credentials of the environment). */
  secrets: readonly string[];
}

/** HoloDeck's in-process tools reach the Claude CLI through this MCP server; agent.yaml names them without it. */

function redactDeep(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((entry) => redactDeep(entry, secrets));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, redactDeep(entry, secrets)]));
  return value;
}

/** Finds a case of a saved run, or says which cases it has. */
export function findRunCase(run: RunReport, caseName: string): CaseReport {
  const found = run.cases.find((entry) => entry.name === caseName);
  if (!found)
    throw new UsageError(
      '--case',
      `run ${run.run_id} has no case "${caseName}"`,
      `its cases are ${run.cases.map((entry) => entry.name).join(', ')}`,
    );
  return found;
}

/**
 * A test case made from what a saved run's case did in its first attempt: the user turns, the tools
 * that ran as `expected_tools`, and the final answer as `ground_truth` (or, as a counterexample, as
 * a `not-contains` metric). Secrets in any of it are redacted.
 */
export function caseFromRun(source: CaseReport, options: CaseFromRunOptions): Record<string, unknown> {
  const attempt = source.attempts[0];
  if (!attempt || attempt.error !== undefined)
    throw new UsageError(
      '--case',
      `case "${source.name}" did not run to an answer in that run${attempt?.error ? ` (${attempt.error})` : ''}`,
      'pick a case that ran, or a later run',
    );
  const turns = attempt.turns?.map((turn) => turn.input);
  return caseFromConversation(
    {
      inputs: turns?.length ? turns : [source.input],
      toolCalls: attempt.tool_calls.map((call) => ({ name: call.name, arguments: call.arguments })),
      answer: attempt.response,
    },
    options,
  );
}

/** What a new case is made of: the user turns, the tool calls in order, the final answer. */
export interface Conversation {
  inputs: readonly string[];
  toolCalls: readonly { name: string; arguments: unknown }[];
  answer: string;
}

/**
 * A test case made from a conversation (`test add --from-run` and `--from-session`): one `input`
 * or `turns`, the tools that ran as `expected_tools`, and the final answer as `ground_truth` (or,
 * as a counterexample, as a `not-contains` metric). Secrets in any of it are redacted.
 */
export function caseFromConversation(
  conversation: Conversation,
  options: CaseFromRunOptions,
): Record<string, unknown> {
  const tools = conversation.toolCalls.map((call) => {
    const name = withoutFunctionToolsPrefix(call.name);
    return options.withArgs ? { name, args: call.arguments } : name;
  });
  const unique = options.withArgs ? tools : [...new Set(tools as string[])];
  const answer = conversation.answer;
  const { inputs } = conversation;
  const testCase: Record<string, unknown> = {
    name: options.name,
    ...(inputs.length > 1 ? { turns: inputs.map((input) => ({ input })) } : { input: inputs[0] }),
    ...(unique.length ? { expected_tools: unique } : {}),
    ...(options.asCounterexample
      ? { metrics: [{ type: 'not-contains', value: answer }] }
      : answer
        ? { ground_truth: answer }
        : {}),
  };
  const redacted = redactDeep(testCase, options.secrets) as Record<string, unknown>;
  if (options.asCounterexample && JSON.stringify(redacted).includes(REDACTED))
    throw new UsageError(
      '--as-counterexample',
      'the answer holds a secret, which would be redacted out of the check',
      'use the case as an example (without --as-counterexample), or write the check by hand',
    );
  return redacted;
}
