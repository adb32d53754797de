import type { ViewAttempt, ViewCase, ViewGovernance, ViewRun } from '../view-data.js';
import { describeFailure, failuresOfAttempt } from './case-failures.js';
import { attemptsWithInterval, cost, count, duration, percent, score } from './format-values.js';
import { html, type SafeHtml } from './html.js';
import { DEFAULT_CASE_QUERY, type PageMode, routeHref } from './page-route.js';
import { renderAttemptDifferences } from './render-attempt-differences.js';
import { renderConversation } from './render-conversation.js';
import { renderMarkdown } from './render-markdown.js';
import { renderMetricsTable } from './render-metrics-table.js';
import { renderStatus } from './render-run-page.js';
import { renderTextDiff } from './render-text-diff.js';
import type { RenderedPage } from './rendered-page.js';
import { toolDisplayName } from './tool-display.js';

/** The metric that reports expected_tools / forbidden_tools. */
const TOOL_METRIC = 'tool-calls';

/** The same case in the run before this one (of the same agent), when there is one. */
export interface PreviousCase {
  runId: string;
  testCase: ViewCase;
}

function renderGovernance(governance: ViewGovernance): SafeHtml {
  return html`<h4>Governance verdicts ${governance.killed ? html`<span class="badge badge-errored">session killed</span>` : ''}</h4>
    ${
      governance.verdicts.length
        ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Governance verdicts"><table class="verdicts"><caption>Novarch's verdicts on this attempt's writes</caption>
      <thead><tr><th scope="col">Tool</th><th scope="col">Action</th><th scope="col">Verdict</th><th scope="col">Rules cited</th><th scope="col">Rationale</th></tr></thead>
      <tbody>${governance.verdicts.map(
        (
          verdict,
        ) => html`<tr><th scope="row"><code title="${verdict.tool}">${toolDisplayName(verdict.tool)}</code></th><td>${verdict.action_type}</td>
          <td><span class="badge badge-verdict-${verdict.verdict}">${verdict.verdict}</span>${verdict.hold_status ? html` <span class="muted">(${verdict.hold_status})</span>` : ''}</td>
          <td>${verdict.rule_ids.length ? verdict.rule_ids.map((rule) => html`<code class="cite">${rule}</code> `) : html`<span class="muted">none</span>`}</td>
          <td><div class="reason">${verdict.rationale}</div></td></tr>`,
      )}</tbody></table></div>`
        : html`<p class="muted">No judged writes.</p>`
    }
    ${
      governance.refusals?.length
        ? html`<ul class="refusals">${governance.refusals.map(
            (refusal) =>
              html`<li>refused <code title="${refusal.tool}">${toolDisplayName(refusal.tool)}</code> (${refusal.action_type}) by ${refusal.source}: <span class="reason">${refusal.rationale}</span></li>`,
          )}</ul>`
        : ''
    }`;
}

/** A failure and the attempts it happened in: the same reason is listed once. */
interface GroupedFailure {
  summary: string;
  reason: string;
  attempts: number[];
}

function groupFailures(attempts: readonly ViewAttempt[]): {
  errors: GroupedFailure[];
  metrics: GroupedFailure[];
} {
  const errors = new Map<string, GroupedFailure>();
  const metrics = new Map<string, GroupedFailure>();
  for (const attempt of attempts) {
    if (attempt.error !== undefined) {
      const entry = errors.get(attempt.error) ?? {
        summary: 'run error',
        reason: attempt.error,
        attempts: [],
      };
      entry.attempts.push(attempt.attempt);
      errors.set(attempt.error, entry);
    }
    for (const failure of failuresOfAttempt(attempt)) {
      const reason = failure.metric.error ?? failure.metric.reason;
      const summary = describeFailure(failure);
      const key = `${summary}\u0000${reason}`;
      const entry = metrics.get(key) ?? { summary, reason, attempts: [] };
      entry.attempts.push(attempt.attempt);
      metrics.set(key, entry);
    }
  }
  return { errors: [...errors.values()], metrics: [...metrics.values()] };
}

/** Why the case did not pass, at the top: each distinct run error and failing metric once, with its attempts. */
function renderWhy(testCase: ViewCase): SafeHtml {
  const failed = testCase.attempts.filter((attempt) => !attempt.passed);
  if (!failed.length) return html``;
  const k = testCase.attempts.length;
  const { errors, metrics } = groupFailures(failed);
  const where = (attempts: number[]) =>
    k > 1
      ? html` <span class="muted small">(attempt${attempts.length === 1 ? '' : 's'} ${attempts.join(', ')})</span>`
      : '';
  return html`<section class="why" aria-labelledby="why-heading"><h2 id="why-heading">Why it ${testCase.passed ? 'passed with failed attempts' : 'failed'}</h2>
    ${k > 1 ? html`<p>${k - failed.length} of ${k} attempts passed; the case needs ${percent(testCase.min_pass_rate)}.</p>` : ''}
    <ul>${errors.map((entry) => html`<li><div class="reason is-error">run error: ${entry.reason}</div>${where(entry.attempts)}</li>`)}${metrics.map(
      (entry) =>
        html`<li><strong>${entry.summary}</strong>${where(entry.attempts)}: <span class="reason">${entry.reason}</span></li>`,
    )}</ul></section>`;
}

/** Input, ground truth and the answer side by side, with the answer's diffs to the expected one and to the previous run. */
function renderOutputPanel(testCase: ViewCase, previous: PreviousCase | undefined): SafeHtml {
  const attempt = testCase.attempts.find((entry) => !entry.passed) ?? testCase.attempts[0];
  if (!attempt) return html``;
  const turns = attempt.turns ?? [];
  const answerLabel = testCase.attempts.length > 1 ? `Output (attempt ${attempt.attempt})` : 'Output';
  const previousAttempt = previous?.testCase.attempts[0];
  return html`<section class="output-panel" aria-labelledby="output-heading"><h2 id="output-heading" class="visually-hidden">Input, expected and actual output</h2>
    <div class="side-by-side">
      <div class="panel"><h3>${turns.length ? `Inputs (${turns.length} turns)` : 'Input'}</h3>${
        turns.length
          ? html`<ol class="turn-inputs">${turns.map((turn) => html`<li><div class="text">${turn.input}</div></li>`)}</ol>`
          : html`<div class="text">${testCase.input}</div>`
      }</div>
      ${testCase.ground_truth !== undefined ? html`<div class="panel"><h3>Ground truth</h3><div class="text">${testCase.ground_truth}</div></div>` : ''}
      <div class="panel"><h3>${answerLabel}</h3>${attempt.response ? renderMarkdown(attempt.response) : html`<p class="muted">(no answer)</p>`}</div>
    </div>
    ${testCase.ground_truth !== undefined && attempt.response ? html`<details class="diff-box" open><summary>Output against the ground truth</summary>${renderTextDiff(testCase.ground_truth, attempt.response, { before: 'ground truth', after: 'output' })}</details>` : ''}
    ${previousAttempt ? html`<details class="diff-box"><summary>Output against the same case in the previous run (${previous.runId}, ${previousAttempt.passed ? 'passed' : 'failed'})</summary>${renderTextDiff(previousAttempt.response, attempt.response, { before: 'previous run', after: 'this run' })}</details>` : ''}
  </section>`;
}

function renderAttempt(testCase: ViewCase, attempt: ViewAttempt): SafeHtml {
  const id = `attempt-${attempt.attempt}`;
  const toolMetrics = attempt.metrics.filter((metric) => metric.type === TOOL_METRIC);
  const otherMetrics = attempt.metrics.filter((metric) => metric.type !== TOOL_METRIC);
  const turnMetrics = (attempt.turns ?? []).flatMap((turn) => turn.metrics);
  const turnTools = turnMetrics.some((metric) => metric.type === TOOL_METRIC);
  return html`<section class="attempt" id="${id}" aria-labelledby="${id}-heading" tabindex="-1">
    <h2 id="${id}-heading">Attempt ${attempt.attempt} ${attempt.passed ? html`<span class="badge badge-passed">passed</span>` : attempt.error !== undefined ? html`<span class="badge badge-errored">run failed</span>` : html`<span class="badge badge-failed">failed</span>`}${attempt.interrupted ? html` <span class="badge badge-interrupted">interrupted</span>` : ''}</h2>
    <ul class="totals" aria-label="Attempt ${attempt.attempt} totals">
      <li><strong>${score(attempt.score)}</strong> score</li>
      <li><strong>${count(attempt.token_usage.total_tokens)}</strong> tokens <span class="muted">(${count(attempt.token_usage.prompt_tokens)} in · ${count(attempt.token_usage.completion_tokens)} out)</span></li>
      <li><strong>${cost(attempt.cost_usd)}</strong> cost</li>
      <li><strong>${duration(attempt.duration_ms)}</strong></li>
      <li><strong>${attempt.num_turns}</strong> model turns</li>
    </ul>
    <h3>Conversation</h3>
    ${renderConversation(testCase.input, attempt)}
    <h3>${attempt.turns?.length ? 'Metrics of the whole conversation' : 'Metrics'}</h3>
    ${
      otherMetrics.length
        ? renderMetricsTable(otherMetrics, `Metrics of attempt ${attempt.attempt}`)
        : html`<p class="muted">${turnMetrics.length ? 'None beyond the turns’ own metrics (beside each turn above).' : 'No metrics.'}</p>`
    }
    <h3>Tool expectations</h3>
    ${
      toolMetrics.length
        ? renderMetricsTable(toolMetrics, 'expected_tools and forbidden_tools')
        : html`<p class="muted">${turnTools ? 'Set per turn (beside each turn above).' : 'This case sets no tool expectations.'}</p>`
    }
    ${attempt.governance ? renderGovernance(attempt.governance) : ''}
  </section>`;
}

/** One case: why it failed first, input/expected/output side by side, then every attempt in full. */
export function renderCasePage(
  run: ViewRun,
  testCase: ViewCase,
  mode: PageMode,
  previous?: PreviousCase,
): RenderedPage {
  const title = `${testCase.name} · ${run.agent.name}`;
  const k = testCase.attempts.length;
  const index = run.cases.indexOf(testCase);
  const neighbour = (offset: number) => {
    const other = run.cases[index + offset];
    return other ? routeHref({ page: 'case', runId: run.run_id, caseName: other.name }, mode) : undefined;
  };
  const previousHref = neighbour(-1);
  const nextHref = neighbour(1);
  const body = html`<h1 tabindex="-1">${testCase.name} ${renderStatus(testCase)}</h1>
    <dl class="facts">
      ${testCase.tags.length ? html`<div><dt>Tags</dt><dd>${testCase.tags.join(', ')}</dd></div>` : ''}
      <div><dt>Score</dt><dd>${score(testCase.score)}</dd></div>
      <div><dt>Attempts</dt><dd>${attemptsWithInterval(testCase.attempts.filter((attempt) => attempt.passed).length, testCase.finished_attempts ?? k, testCase.pass_interval)}${k > 1 ? html` · pass@${k} ${score(testCase.pass_at_k)} · pass^${k} ${score(testCase.pass_pow_k)} · needs ${percent(testCase.min_pass_rate)}` : ''}</dd></div>
      <div><dt>Tokens</dt><dd>${count(testCase.token_usage.total_tokens)}</dd></div>
      <div><dt>Duration</dt><dd>${duration(testCase.duration_ms)}</dd></div>
    </dl>
    <nav class="case-steps" aria-label="Cases of this run">${previousHref ? html`<a href="${previousHref}" rel="prev" data-key="k">← previous case</a>` : ''} <a href="${routeHref({ page: 'run', runId: run.run_id, query: DEFAULT_CASE_QUERY }, mode)}">All cases of this run</a> ${nextHref ? html`<a href="${nextHref}" rel="next" data-key="j">next case →</a>` : ''} <span class="muted small">(keys j / k)</span></nav>
    ${k > 1 ? html`<nav aria-label="Attempts" class="attempt-nav"><ul>${testCase.attempts.map((attempt) => html`<li><button type="button" data-focus="attempt-${attempt.attempt}">Attempt ${attempt.attempt}: ${attempt.passed ? 'passed' : 'failed'}</button></li>`)}</ul></nav>` : ''}
    ${renderWhy(testCase)}
    ${renderOutputPanel(testCase, previous)}
    ${renderAttemptDifferences(testCase)}
    ${testCase.attempts.map((attempt) => renderAttempt(testCase, attempt))}`;
  return {
    title,
    crumbs: [
      { label: 'Runs', route: { page: 'runs' } },
      { label: run.run_id, route: { page: 'run', runId: run.run_id, query: DEFAULT_CASE_QUERY } },
      { label: testCase.name, route: { page: 'case', runId: run.run_id, caseName: testCase.name } },
    ],
    body,
  };
}
