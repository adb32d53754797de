import type { ViewAttempt, ViewToolCall, ViewToolResult } from '../view-data.js';
import { html, type SafeHtml } from './html.js';
import { renderMarkdown } from './render-markdown.js';
import { renderMetricsTable } from './render-metrics-table.js';
import { prettyResult, readToolError, toolDisplayName } from './tool-display.js';

function argumentsText(call: ViewToolCall): string {
  return JSON.stringify(call.arguments, null, 2);
}

function renderResult(result: ViewToolResult): SafeHtml {
  if (!result.is_error)
    return html`<div class="who">result</div><pre class="code" aria-label="result">${prettyResult(result.result)}</pre>`;
  const refusal = readToolError(result.result);
  return html`<div class="who"><span class="badge badge-errored">${refusal.by ? `refused by ${refusal.by}` : 'error result'}</span></div>
    <div class="reason is-error">${refusal.reason}</div>${refusal.rules.length ? html`<div class="small">rules: ${refusal.rules.map((rule) => html`<code class="cite">${rule}</code>`)}</div>` : ''}`;
}

function renderToolCall(call: ViewToolCall, results: readonly ViewToolResult[]): SafeHtml {
  const result = results.find((entry) => entry.call_id === call.call_id);
  return html`<li class="msg msg-tool">
    <div class="who">tool call <code title="${call.name}">${toolDisplayName(call.name)}</code></div>
    <pre class="code" aria-label="arguments">${argumentsText(call)}</pre>
    ${result ? renderResult(result) : html`<div class="muted">no result recorded (the call did not run or the attempt stopped)</div>`}
  </li>`;
}

function renderExchange(
  input: string,
  calls: readonly ViewToolCall[],
  results: readonly ViewToolResult[],
  response: string,
  error: string | undefined,
): SafeHtml {
  return html`<li class="msg msg-user"><div class="who">user</div><div class="text">${input}</div></li>
    ${calls.map((call) => renderToolCall(call, results))}
    ${response ? html`<li class="msg msg-assistant"><div class="who">assistant</div>${renderMarkdown(response)}</li>` : html`<li class="msg msg-assistant muted"><div class="who">assistant</div><div class="text">(no answer)</div></li>`}
    ${error !== undefined ? html`<li class="msg msg-error" role="note"><div class="who">error</div><div class="text">${error}</div></li>` : ''}`;
}

/**
 * The attempt's conversation as it happened: each user message, the tool calls with their
 * arguments and results, the answer, and the run error when there was one. Tool calls come
 * before the answer of their turn: the report keeps the final text of a turn, not its chunks.
 */
export function renderConversation(input: string, attempt: ViewAttempt): SafeHtml {
  if (attempt.turns?.length) {
    return html`<ol class="conversation">${attempt.turns.map(
      (turn, index) =>
        html`<li class="turn"><div class="turn-label">turn ${index + 1}${turn.passed ? '' : html` <span class="badge badge-failed">failed</span>`}</div><div class="turn-body"><ol class="conversation">${renderExchange(turn.input, turn.tool_calls, turn.tool_results, turn.response, turn.error)}</ol>${turn.metrics.length ? html`<div class="turn-metrics">${renderMetricsTable(turn.metrics, `Metrics of turn ${index + 1}`)}</div>` : ''}</div></li>`,
    )}${attempt.error !== undefined && !attempt.turns.some((turn) => turn.error === attempt.error) ? html`<li class="msg msg-error" role="note"><div class="who">error</div><div class="text">${attempt.error}</div></li>` : ''}</ol>`;
  }
  return html`<ol class="conversation">${renderExchange(input, attempt.tool_calls, attempt.tool_results, attempt.response, attempt.error)}</ol>`;
}
