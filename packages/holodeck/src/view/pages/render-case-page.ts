import type { ViewAttempt, ViewCase, ViewGovernance, ViewMetric, ViewRun } from '../view-data.js';
import { attemptsWithInterval, cost, count, duration, percent, score } from './format-values.js';
import { html, type SafeHtml } from './html.js';
import { DEFAULT_CASE_QUERY, type PageMode, routeHref } from './page-route.js';
import { renderConversation } from './render-conversation.js';
import { renderStatus } from './render-run-page.js';
import type { RenderedPage } from './rendered-page.js';

/** The metric that reports expected_tools / forbidden_tools. */
const TOOL_METRIC = 'tool-calls';

function metricState(metric: ViewMetric): SafeHtml {
  if (metric.error !== undefined) return html`<span class="badge badge-errored">error</span>`;
  return metric.passed
    ? html`<span class="badge badge-passed">pass</span>`
    : html`<span class="badge badge-failed">fail</span>`;
}

function renderMetrics(metrics: readonly ViewMetric[], caption: string): SafeHtml {
  if (!metrics.length) return html`<p class="muted">No metrics.</p>`;
  return html`<div class="table-wrap"><table class="metrics"><caption>${caption}</caption>
    <thead><tr><th scope="col">Metric</th><th scope="col">Result</th><th scope="col" class="num">Score</th><th scope="col" class="num">Threshold</th><th scope="col">Reason</th></tr></thead>
    <tbody>${metrics.map(
      (metric) => html`<tr class="${metric.passed ? 'row-passed' : 'row-failed'}">
        <th scope="row">${metric.name}${metric.name !== metric.type ? html`<div class="muted small">${metric.type}</div>` : ''}${metric.weight !== undefined ? html`<div class="muted small">weight ${metric.weight}${metric.weight === 0 ? ' (not deciding)' : ''}</div>` : ''}</th>
        <td>${metricState(metric)}</td>
        <td class="num">${score(metric.score)}</td>
        <td class="num">${metric.threshold !== undefined ? score(metric.threshold) : '—'}</td>
        <td><div class="reason">${metric.reason}</div>${metric.error !== undefined ? html`<div class="reason is-error">${metric.error}</div>` : ''}</td>
      </tr>`,
    )}</tbody></table></div>`;
}

function renderGovernance(governance: ViewGovernance): SafeHtml {
  return html`<h4>Governance verdicts ${governance.killed ? html`<span class="badge badge-errored">session killed</span>` : ''}</h4>
    ${
      governance.verdicts.length
        ? html`<div class="table-wrap"><table class="verdicts"><caption>Novarch's verdicts on this attempt's writes</caption>
      <thead><tr><th scope="col">Tool</th><th scope="col">Action</th><th scope="col">Verdict</th><th scope="col">Rules cited</th><th scope="col">Rationale</th></tr></thead>
      <tbody>${governance.verdicts.map(
        (verdict) => html`<tr><th scope="row"><code>${verdict.tool}</code></th><td>${verdict.action_type}</td>
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
              html`<li>refused <code>${refusal.tool}</code> (${refusal.action_type}) by ${refusal.source}: <span class="reason">${refusal.rationale}</span></li>`,
          )}</ul>`
        : ''
    }`;
}

function failedMetrics(attempt: ViewAttempt): ViewMetric[] {
  return [
    ...attempt.metrics.filter((metric) => !metric.passed),
    ...(attempt.turns ?? []).flatMap((turn, index) =>
      turn.metrics
        .filter((metric) => !metric.passed)
        .map((metric) => ({ ...metric, name: `turn ${index + 1} ${metric.name}` })),
    ),
  ];
}

/** Why the case did not pass, at the top: each failed attempt's run error and failing metrics with their reasons. */
function renderWhy(testCase: ViewCase): SafeHtml {
  const failed = testCase.attempts.filter((attempt) => !attempt.passed);
  if (!failed.length) return html``;
  return html`<section class="why" aria-labelledby="why-heading"><h2 id="why-heading">Why it ${testCase.passed ? 'passed with failed attempts' : 'failed'}</h2>
    ${testCase.attempts.length > 1 ? html`<p>${testCase.attempts.length - failed.length} of ${testCase.attempts.length} attempts passed; the case needs ${percent(testCase.min_pass_rate)}.</p>` : ''}
    <ul>${failed.map(
      (attempt) => html`<li><strong>Attempt ${attempt.attempt}</strong>:
        ${attempt.error !== undefined ? html`<div class="reason is-error">run error: ${attempt.error}</div>` : ''}
        <ul>${failedMetrics(attempt).map(
          (metric) =>
            html`<li><strong>${metric.name}</strong> ${score(metric.score)}${metric.threshold !== undefined ? html` &lt; ${score(metric.threshold)}` : ''}: <span class="reason">${metric.error ?? metric.reason}</span></li>`,
        )}</ul></li>`,
    )}</ul></section>`;
}

function renderAttempt(testCase: ViewCase, attempt: ViewAttempt): SafeHtml {
  const id = `attempt-${attempt.attempt}`;
  const toolMetrics = attempt.metrics.filter((metric) => metric.type === TOOL_METRIC);
  const otherMetrics = attempt.metrics.filter((metric) => metric.type !== TOOL_METRIC);
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
    <h3>Metrics</h3>
    ${renderMetrics(otherMetrics, `Metrics of attempt ${attempt.attempt}`)}
    ${(attempt.turns ?? []).map((turn, index) => (turn.metrics.length ? html`<h4>Turn ${index + 1}</h4>${renderMetrics(turn.metrics, `Metrics of turn ${index + 1}`)}` : ''))}
    <h3>Tool expectations</h3>
    ${toolMetrics.length ? renderMetrics(toolMetrics, 'expected_tools and forbidden_tools') : html`<p class="muted">This case sets no tool expectations.</p>`}
    ${attempt.governance ? renderGovernance(attempt.governance) : ''}
  </section>`;
}

/** One case: why it failed first, then every attempt in full. */
export function renderCasePage(run: ViewRun, testCase: ViewCase, mode: PageMode): RenderedPage {
  const title = `${testCase.name} · ${run.agent.name}`;
  const k = testCase.attempts.length;
  const body = html`<h1 tabindex="-1">${testCase.name} ${renderStatus(testCase)}</h1>
    <dl class="facts">
      <div><dt>Input</dt><dd class="text">${testCase.input}</dd></div>
      ${testCase.ground_truth !== undefined ? html`<div><dt>Ground truth</dt><dd class="text">${testCase.ground_truth}</dd></div>` : ''}
      ${testCase.tags.length ? html`<div><dt>Tags</dt><dd>${testCase.tags.join(', ')}</dd></div>` : ''}
      <div><dt>Score</dt><dd>${score(testCase.score)}</dd></div>
      <div><dt>Attempts</dt><dd>${attemptsWithInterval(testCase.attempts.filter((attempt) => attempt.passed).length, testCase.finished_attempts ?? k, testCase.pass_interval)}${k > 1 ? html` · pass@${k} ${score(testCase.pass_at_k)} · pass^${k} ${score(testCase.pass_pow_k)} · needs ${percent(testCase.min_pass_rate)}` : ''}</dd></div>
      <div><dt>Tokens</dt><dd>${count(testCase.token_usage.total_tokens)}</dd></div>
      <div><dt>Duration</dt><dd>${duration(testCase.duration_ms)}</dd></div>
    </dl>
    ${k > 1 ? html`<nav aria-label="Attempts" class="attempt-nav"><ul>${testCase.attempts.map((attempt) => html`<li><button type="button" data-focus="attempt-${attempt.attempt}">Attempt ${attempt.attempt}: ${attempt.passed ? 'passed' : 'failed'}</button></li>`)}</ul></nav>` : ''}
    <p><a href="${routeHref({ page: 'run', runId: run.run_id, query: DEFAULT_CASE_QUERY }, mode)}">All cases of this run</a></p>
    ${renderWhy(testCase)}
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
