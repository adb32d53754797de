import type { ViewCase, ViewRun } from '../view-data.js';
import { metricColumns, metricOfColumn, whyCaseFailed } from './case-failures.js';
import { caseCost, isFlaky, selectCaseRows, statusOf, tagsOf } from './case-rows.js';
import {
  attemptsWithInterval,
  cost,
  count,
  dateTime,
  duration,
  interval,
  percent,
  score,
  shortHash,
} from './format-values.js';
import { html, type SafeHtml } from './html.js';
import {
  CASE_FILTER_STATUSES,
  type CaseQuery,
  type CaseSortKey,
  type PageMode,
  routeHref,
} from './page-route.js';
import { renderMatrixGrid } from './render-matrix-grid.js';
import { renderGit, renderRunState } from './render-runs-page.js';
import type { RenderedPage } from './rendered-page.js';

const COLUMNS: { key: CaseSortKey; label: string; numeric?: boolean }[] = [
  { key: 'suite', label: '#', numeric: true },
  { key: 'name', label: 'Case' },
  { key: 'status', label: 'Status' },
  { key: 'score', label: 'Score', numeric: true },
  { key: 'attempts', label: 'Attempts passed', numeric: true },
  { key: 'duration', label: 'Duration', numeric: true },
  { key: 'cost', label: 'Cost', numeric: true },
];

/** `passed`, `failed` ... as a badge, with `flaky` beside it when the attempts disagree. */
export function renderStatus(testCase: ViewCase): SafeHtml {
  const status = statusOf(testCase);
  return html`<span class="badge badge-${status}">${status}</span>${
    isFlaky(testCase)
      ? html` <span class="badge badge-flaky" title="some attempts passed, some did not">flaky</span>`
      : ''
  }`;
}

/** The run's facts: agent, model, git, versions, hashes, selection. */
export function renderRunFacts(run: ViewRun): SafeHtml {
  const versions = run.versions;
  return html`<dl class="facts">
    <div><dt>Agent</dt><dd>${run.agent.name}</dd></div>
    <div><dt>Model</dt><dd>${run.agent.model} <span class="muted">(${run.agent.provider})</span></dd></div>
    <div><dt>Started</dt><dd>${dateTime(run.started_at)}</dd></div>
    <div><dt>Duration</dt><dd>${duration(run.summary.duration_ms)}</dd></div>
    <div><dt>Git</dt><dd>${renderGit(run.git)}</dd></div>
    <div><dt>Configuration</dt><dd><code title="${run.agent.config_hash ?? 'not recorded'}">${shortHash(run.agent.config_hash)}</code></dd></div>
    <div><dt>Instructions</dt><dd><code title="${run.agent.instructions_hash ?? 'not recorded'}">${shortHash(run.agent.instructions_hash)}</code>${run.agent.instructions_version !== undefined ? html` version ${run.agent.instructions_version}` : ''}</dd></div>
    <div><dt>Versions</dt><dd>${versions ? html`holodeck ${versions.holodeck} · node ${versions.node}${versions.sdk ? html` · ${versions.sdk}` : ''}${versions.cli ? html` · CLI ${versions.cli}` : ''}` : html`<span class="muted">not recorded (report format 1)</span>`}</dd></div>
    ${run.selection.length ? html`<div><dt>Selection</dt><dd><code>${run.selection.join(' ')}</code></dd></div>` : ''}
  </dl>`;
}

function renderTotals(run: ViewRun): SafeHtml {
  const { summary } = run;
  return html`<ul class="totals" aria-label="Totals">
    <li><strong>${percent(summary.pass_rate)}</strong> passed</li>
    ${summary.attempts ? html`<li><strong>${attemptsWithInterval(summary.attempts.passed, summary.attempts.finished, summary.attempts.pass_interval)}</strong> finished attempts</li>` : ''}
    <li><strong class="ok">${summary.passed}</strong> passed</li>
    <li><strong class="bad">${summary.failed}</strong> failed</li>
    <li><strong class="err">${summary.errored}</strong> errored</li>
    ${summary.interrupted ? html`<li><strong>${summary.interrupted}</strong> interrupted</li>` : ''}
    <li><strong>${cost(summary.cost_usd)}</strong> cost${summary.cost_usd === null && summary.cost_unknown_reason ? html` <span class="muted small">(${summary.cost_unknown_reason})</span>` : ''}</li>
    ${summary.cost_per_passed_case_usd != null ? html`<li><strong>${cost(summary.cost_per_passed_case_usd)}</strong> per passed case</li>` : ''}
    ${renderJudgeCost(summary)}
    <li><strong>${count(summary.token_usage.total_tokens)}</strong> tokens</li>
  </ul>`;
}

/** The judge's cost and the total spend, once the run called the judge (cost above is the agent's). */
function renderJudgeCost(summary: ViewRun['summary']): SafeHtml | '' {
  const calls = summary.judge_calls;
  if (!calls || summary.judge_cost_usd === undefined || calls.billed + calls.cached === 0) return '';
  const reason =
    summary.judge_cost_usd === null && summary.judge_cost_unknown_reason
      ? html` <span class="muted small">(${summary.judge_cost_unknown_reason})</span>`
      : '';
  const cached = calls.cached ? `, ${calls.cached} cached` : '';
  return html`<li><strong>${cost(summary.judge_cost_usd)}</strong> judge (${calls.billed + calls.cached} calls${cached})${reason}</li>
    <li><strong>${cost(summary.total_cost_usd ?? null)}</strong> total spend</li>`;
}

function renderFilters(run: ViewRun, query: CaseQuery): SafeHtml {
  const tags = tagsOf(run.cases);
  return html`<form class="filters" role="search" aria-label="Filter the cases" data-filters>
    <label>Status <select id="filter-status" name="status" data-filter="status">${CASE_FILTER_STATUSES.map(
      (status) =>
        html`<option value="${status}"${status === query.status ? html` selected` : ''}>${status}</option>`,
    )}</select></label>
    <label>Tag <select id="filter-tag" name="tag" data-filter="tag"><option value="">any</option>${tags.map(
      (tag) => html`<option value="${tag}"${tag === query.tag ? html` selected` : ''}>${tag}</option>`,
    )}</select></label>
    <label>Text <input id="filter-text" name="q" type="search" value="${query.text}" placeholder="name or input" data-filter="text" autocomplete="off"></label>
    <label class="check"><input id="filter-metrics" name="columns" value="metrics" type="checkbox"${query.metricColumns ? html` checked` : ''} data-filter="columns"> a column per metric</label>
  </form>`;
}

/** The cases table alone (the part filters and live updates redraw). */
export function renderCaseTable(run: ViewRun, query: CaseQuery, mode: PageMode): SafeHtml {
  const rows = selectCaseRows(run.cases, query);
  const header = COLUMNS.map((column) => {
    const active = query.sort === column.key;
    const sort = active ? (query.descending ? 'descending' : 'ascending') : 'none';
    const next = active && !query.descending ? 'descending' : 'ascending';
    return html`<th scope="col"${column.numeric ? html` class="num"` : ''} aria-sort="${sort}"><button type="button" data-sort="${column.key}" aria-label="${column.label}: sort ${next}">${column.label}${active ? (query.descending ? ' ▼' : ' ▲') : ''}</button></th>`;
  });
  const columns = query.metricColumns ? metricColumns(run.cases) : [];
  const metricHeader = columns.map((name) => html`<th scope="col" class="num metric-col">${name}</th>`);
  const body = rows.map((testCase) => {
    const passes = testCase.attempts.filter((attempt) => attempt.passed).length;
    const k = testCase.finished_attempts ?? testCase.attempts.length;
    const why = whyCaseFailed(testCase);
    return html`<tr class="row-${statusOf(testCase)}">
      <td class="num muted">${run.cases.indexOf(testCase) + 1}</td>
      <th scope="row"><a href="${routeHref({ page: 'case', runId: run.run_id, caseName: testCase.name }, mode)}">${testCase.name}</a>${testCase.tags.length ? html`<div class="muted small">${testCase.tags.join(', ')}</div>` : ''}</th>
      <td>${renderStatus(testCase)}</td>
      <td class="why-cell">${why.length ? html`<ul class="why-list">${why.map((line) => html`<li>${line}</li>`)}</ul>` : html`<span class="muted">—</span>`}</td>
      <td class="num">${score(testCase.score)}</td>
      <td class="num">${passes}/${k}${testCase.pass_interval ? html`<div class="muted small">${interval(testCase.pass_interval)}</div>` : ''}${k > 1 ? html`<div class="muted small">pass@${k} ${score(testCase.pass_at_k)} · pass^${k} ${score(testCase.pass_pow_k)}</div>` : ''}</td>
      <td class="num">${duration(testCase.duration_ms)}</td>
      <td class="num">${cost(caseCost(testCase))}</td>
      ${columns.map((name) => {
        const metric = metricOfColumn(testCase, name);
        if (!metric) return html`<td class="num muted">—</td>`;
        return html`<td class="num ${metric.passed ? 'ok' : 'bad'}">${score(metric.score)}<span class="visually-hidden">${metric.passed ? ' passed' : ' failed'}</span>${metric.passed ? '' : ' ✗'}</td>`;
      })}
    </tr>`;
  });
  const [first, ...rest] = header;
  return html`<div class="table-wrap" id="case-table" tabindex="0" role="region" aria-label="Cases"><table class="cases">
    <caption>${rows.length} of ${run.cases.length} case(s)${run.planned_cases !== null ? html` (${run.planned_cases} planned)` : ''}${query.sort === 'status' && !query.descending ? ', failures first' : ''}</caption>
    <thead><tr>${first}${rest.slice(0, 2)}<th scope="col">Why</th>${rest.slice(2)}${metricHeader}</tr></thead>
    <tbody>${body}</tbody>
  </table>${rows.length === 0 ? html`<p>No case matches these filters.</p>` : ''}</div>`;
}

/** A run: its facts and totals, the filterable cases table, and its redacted configuration. */
export function renderRunPage(
  run: ViewRun,
  query: CaseQuery,
  mode: PageMode,
  compareWith: string | null,
): RenderedPage {
  const title = `Run ${dateTime(run.started_at)} of ${run.agent.name}`;
  const body = html`<h1 tabindex="-1">${title} ${renderRunState(run)}</h1>
    <p class="muted">${run.run_id}</p>
    ${run.planned_cases !== null ? html`<p role="status" class="live" id="live-status">In progress: ${run.summary.total} of ${run.planned_cases} cases finished. This page updates as cases finish.</p>` : ''}
    ${renderRunFacts(run)}
    ${renderTotals(run)}
    ${compareWith ? html`<p><a href="${routeHref({ page: 'compare', currentId: run.run_id, baselineId: compareWith }, mode)}">Compare with ${mode === 'static' ? 'the baseline' : 'the previous run'}</a></p>` : ''}
    ${run.matrix ? renderMatrixGrid(run, run.matrix, mode) : ''}
    <section aria-labelledby="cases-heading"><h2 id="cases-heading">Cases</h2>
    ${renderFilters(run, query)}
    ${renderCaseTable(run, query, mode)}
    </section>
    ${run.config ? html`<section aria-labelledby="config-heading"><h2 id="config-heading">Agent configuration</h2><details><summary>agent.yaml as loaded, secrets redacted (hash <code>${shortHash(run.agent.config_hash)}</code>)</summary><pre class="code">${JSON.stringify(run.config, null, 2)}</pre></details></section>` : ''}`;
  return {
    title,
    crumbs: [
      { label: 'Runs', route: { page: 'runs' } },
      { label: dateTime(run.started_at), route: { page: 'run', runId: run.run_id, query } },
    ],
    body,
  };
}
