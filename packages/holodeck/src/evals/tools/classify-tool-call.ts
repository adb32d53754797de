import type { ToolCall, ToolResult } from '../../backends/contract/index.js';
import { INVALID_ARGUMENTS_PREFIX } from '../../tools/index.js';

/** What became of one tool call: it ran (even if the tool then failed), or it never did. */
export type ToolCallOutcome = 'ran' | 'refused' | 'invalid-arguments' | 'no-result';

/**
 * Error results that mean the tool never ran, by their first words. These are written by HoloDeck's
 * tool layer (invalid arguments), by MCP servers (JSON-RPC -32602 "invalid params"), and by the
 * agent runtime for calls it refused or could not route: the CLI wraps its own in
 * `<tool_use_error>` and reports a PreToolUse guard's refusal (allowed_tools, Bash limits, Novarch)
 * as `PreToolUse:<tool> hook error: <reason>`; HoloDeck's permission handler says nobody can
 * approve. A tool that ran and failed ("Tool "x" failed: ...") is none of these.
 */
const NOT_RUN: readonly { pattern: RegExp; outcome: Exclude<ToolCallOutcome, 'ran' | 'no-result'> }[] = [
  { pattern: new RegExp(`^${escapeRegExp(INVALID_ARGUMENTS_PREFIX)}`), outcome: 'invalid-arguments' },
  { pattern: /^MCP error -32602\b/, outcome: 'invalid-arguments' },
  { pattern: /^<tool_use_error>InputValidationError\b/, outcome: 'invalid-arguments' },
  { pattern: /^<tool_use_error>/, outcome: 'refused' },
  { pattern: /^PreToolUse:\S+ hook error: /, outcome: 'refused' },
  { pattern: /nobody can approve it in this run/, outcome: 'refused' },
  { pattern: /^Permission to use \S+ has been denied/, outcome: 'refused' },
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Classifies one call by its result (paired by call id). */
export function classifyToolCall(call: ToolCall, results: readonly ToolResult[]): ToolCallOutcome {
  const result = results.find((candidate) => candidate.call_id === call.call_id);
  if (!result) return 'no-result';
  if (!result.is_error) return 'ran';
  const text = result.result.trimStart();
  return NOT_RUN.find((entry) => entry.pattern.test(text))?.outcome ?? 'ran';
}

/** `refused`, `invalid arguments`, `no result`: how a reason names a call that did not count. */
export function describeToolCallOutcome(outcome: Exclude<ToolCallOutcome, 'ran'>): string {
  return { refused: 'refused', 'invalid-arguments': 'invalid arguments', 'no-result': 'no result' }[outcome];
}
