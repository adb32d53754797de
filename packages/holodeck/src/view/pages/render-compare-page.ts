import type { ViewCaseComparison, ViewComparison, ViewRunHeader } from '../view-data.js';
import {
  cost,
  costDelta,
  count,
  dateTime,
  duration,
  durationDelta,
  percent,
  score,
} from './format-values.js';
import { html, type SafeHtml } from './html.js';
import { DEFAULT_CASE_QUERY, type PageMode, routeHref } from './page-route.js';
import type { RenderedPage } from './rendered-page.js';

/** A run to choose in the compare page's pickers (served mode). */
export interface RunChoice {
  run_id: string;
  started_at: string;
}

function signed(delta: number): string {
  return `${delta >= 0 ? '+' : '−'}${Math.abs(delta).toFixed(2)}`;
}

function caseLink(run: ViewRunHeader, name: string, mode: PageMode): SafeHtml {
  return html`<a href="${routeHref({ page: 'case', runId: run.run_id, caseName: name }, mode)}">${name}</a>`;
}

function renderCaseRows(
  entries: readonly ViewCaseComparison[],
  comparison: ViewComparison,
  mode: PageMode,
  caption: string,
): SafeHtml {
  if (!entries.length) return html``;
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${caption}"><table class="compare"><caption>${caption} (${entries.length})</caption>
    <thead><tr><th scope="col">Case</th><th scope="col">Baseline</th><th scope="col">Current</th><th scope="col">Metrics that changed</th></tr></thead>
    <tbody>${entries.map((entry) => {
      const changed = entry.metrics.filter(
        (metric) => metric.change !== 'unchanged' || (metric.delta ?? 0) !== 0,
      );
      const run = entry.change === 'removed' ? comparison.baseline : comparison.current;
      return html`<tr class="change-${entry.change}">
        <th scope="row">${caseLink(run, entry.name, mode)}</th>
        <td>${entry.baselineStatus ? html`<span class="badge badge-${entry.baselineStatus === 'pass' ? 'passed' : entry.baselineStatus === 'error' ? 'errored' : 'failed'}">${entry.baselineStatus}</span>` : html`<span class="muted">—</span>`}</td>
        <td>${entry.currentStatus ? html`<span class="badge badge-${entry.currentStatus === 'pass' ? 'passed' : entry.currentStatus === 'error' ? 'errored' : 'failed'}">${entry.currentStatus}</span>` : html`<span class="muted">—</span>`}</td>
        <td>${
          changed.length
            ? html`<ul class="metric-changes">${changed.map(
                (metric) =>
                  html`<li><strong>${metric.name}</strong> ${metric.change === 'unchanged' ? '' : html`<span class="badge badge-${metric.change}">${metric.change}</span>`} ${metric.baselineScore !== undefined ? score(metric.baselineScore) : '—'} → ${metric.currentScore !== undefined ? score(metric.currentScore) : '—'}${metric.delta !== undefined ? html` <span class="${metric.delta < 0 ? 'bad' : 'ok'}">(${signed(metric.delta)})</span>` : ''}</li>`,
              )}</ul>`
            : html`<span class="muted">none</span>`
        }</td>
      </tr>`;
    })}</tbody></table></div>`;
}

function renderPickers(comparison: ViewComparison, choices: readonly RunChoice[]): SafeHtml {
  if (choices.length < 2) return html``;
  const options = (selected: string) =>
    choices.map(
      (choice) =>
        html`<option value="${choice.run_id}"${choice.run_id === selected ? html` selected` : ''}>${dateTime(choice.started_at)} · ${choice.run_id}</option>`,
    );
  return html`<form class="filters" aria-label="Choose the runs to compare" data-compare-form>
    <label>Baseline <select id="compare-baseline" name="baseline">${options(comparison.baseline.run_id)}</select></label>
    <label>Current <select id="compare-current" name="current">${options(comparison.current.run_id)}</select></label>
    <button type="submit">Compare</button>
  </form>`;
}

function headerCell(run: ViewRunHeader, mode: PageMode): SafeHtml {
  return html`<a href="${routeHref({ page: 'run', runId: run.run_id, query: DEFAULT_CASE_QUERY }, mode)}">${dateTime(run.started_at)}</a><div class="muted small">${run.run_id}</div>`;
}

/** Two runs side by side: totals and their deltas, then regressions, improvements, new and removed cases. */
export function renderComparePage(
  comparison: ViewComparison,
  mode: PageMode,
  choices: readonly RunChoice[] = [],
): RenderedPage {
  const { baseline, current, counts } = comparison;
  const title = `Compare ${current.agent.name}: ${dateTime(current.started_at)} with ${dateTime(baseline.started_at)}`;
  const pick = (change: ViewCaseComparison['change']) =>
    comparison.cases.filter((entry) => entry.change === change);
  const unchangedWithMetricMoves = pick('unchanged').filter((entry) =>
    entry.metrics.some((metric) => metric.change !== 'unchanged'),
  );
  const body = html`<h1 tabindex="-1">Compare runs</h1>
    ${renderPickers(comparison, choices)}
    <div class="table-wrap" tabindex="0" role="region" aria-label="Totals"><table class="compare-totals"><caption>Totals</caption>
      <thead><tr><th scope="col"></th><th scope="col">Baseline</th><th scope="col">Current</th><th scope="col">Change</th></tr></thead>
      <tbody>
        <tr><th scope="row">Run</th><td>${headerCell(baseline, mode)}</td><td>${headerCell(current, mode)}</td><td></td></tr>
        <tr><th scope="row">Pass rate</th><td>${percent(baseline.summary.pass_rate)}</td><td>${percent(current.summary.pass_rate)}</td><td>${signed((current.summary.pass_rate - baseline.summary.pass_rate) * 100)} points</td></tr>
        <tr><th scope="row">Cost</th><td>${cost(baseline.summary.cost_usd)}</td><td>${cost(current.summary.cost_usd)}</td><td>${costDelta(current.summary.cost_usd, baseline.summary.cost_usd)}</td></tr>
        <tr><th scope="row">Duration</th><td>${duration(baseline.summary.duration_ms)}</td><td>${duration(current.summary.duration_ms)}</td><td>${durationDelta(current.summary.duration_ms, baseline.summary.duration_ms)}</td></tr>
        <tr><th scope="row">Tokens</th><td>${count(baseline.summary.token_usage.total_tokens)}</td><td>${count(current.summary.token_usage.total_tokens)}</td><td>${signed(current.summary.token_usage.total_tokens - baseline.summary.token_usage.total_tokens).replace(/\.00$/, '')}</td></tr>
      </tbody></table></div>
    <ul class="totals" aria-label="Case changes">
      <li><strong class="bad">${counts.regressed}</strong> regressed</li>
      <li><strong class="ok">${counts.improved}</strong> improved</li>
      <li><strong>${counts.new}</strong> new</li>
      <li><strong>${counts.removed}</strong> removed</li>
      <li><strong>${counts.unchanged}</strong> unchanged</li>
    </ul>
    ${comparison.differences.length ? html`<div class="notice" role="note"><p>The runs differ in more than their cases:</p><ul>${comparison.differences.map((difference) => html`<li><code>${difference}</code></li>`)}</ul></div>` : ''}
    ${comparison.notSelected.length ? html`<p class="notice" role="note">${comparison.notSelected.length} case(s) of the baseline are in the suite but were not selected by the current run (its --filter, --tag or --shard): they are left out, not counted as removed.</p>` : ''}
    ${renderCaseRows(pick('regressed'), comparison, mode, 'Regressions')}
    ${renderCaseRows(pick('improved'), comparison, mode, 'Improvements')}
    ${renderCaseRows(unchangedWithMetricMoves, comparison, mode, 'No significant change, but the status or metrics moved')}
    ${renderCaseRows(pick('new'), comparison, mode, 'New cases')}
    ${renderCaseRows(pick('removed'), comparison, mode, 'Removed cases')}`;
  return {
    title,
    crumbs: [
      { label: 'Runs', route: { page: 'runs' } },
      {
        label: 'Compare',
        route: { page: 'compare', currentId: current.run_id, baselineId: baseline.run_id },
      },
    ],
    body,
  };
}

/** The page of an address that names nothing (an unknown run or case). */
export function renderNotFoundPage(message: string, mode: PageMode): RenderedPage {
  return {
    title: 'Not found',
    crumbs: [{ label: 'Runs', route: { page: 'runs' } }],
    body: html`<h1 tabindex="-1">Not found</h1><p>${message}</p><p><a href="${routeHref({ page: 'runs' }, mode)}">See every saved run</a></p>`,
  };
}
