import type { ViewRunListEntry } from '../view-data.js';
import { cost, dateTime, percent, shortHash } from './format-values.js';
import { html, type SafeHtml } from './html.js';
import { DEFAULT_CASE_QUERY, type PageMode, routeHref } from './page-route.js';

// Drawn in a wide box the stylesheet scales to the page's width (.chart svg{width:100%}).
const WIDTH = 1200;
const HEIGHT = 260;
const PAD = { left: 44, right: 56, top: 18, bottom: 28 };

/**
 * Pass rate (solid line, left axis) and cost (dashed line, right axis) of the runs over time,
 * oldest on the left, with a mark where the agent configuration or instructions changed. Inline
 * SVG with presentation attributes only, so it needs no script and no inline style (CSP).
 */
export function renderTrendChart(runsNewestFirst: readonly ViewRunListEntry[], mode: PageMode): SafeHtml {
  const runs = [...runsNewestFirst].reverse();
  if (runs.length < 2) return html``;
  const innerWidth = WIDTH - PAD.left - PAD.right;
  const innerHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (index: number) =>
    PAD.left + (runs.length === 1 ? innerWidth / 2 : (index / (runs.length - 1)) * innerWidth);
  const y = (fraction: number) => PAD.top + (1 - fraction) * innerHeight;
  // An interrupted (or unfinished) run is drawn as an open mark off the lines: its figures cover
  // the cases it finished, and a line through them would read as a collapse.
  const costs = runs.map((run) => (isCompleteRun(run) ? run.summary.cost_usd : null));
  const maxCost = Math.max(0, ...costs.map((value) => value ?? 0));
  const passLine = runs
    .flatMap((run, index) =>
      isCompleteRun(run) ? [`${x(index).toFixed(1)},${y(run.summary.pass_rate).toFixed(1)}`] : [],
    )
    .join(' ');
  const costLine =
    maxCost > 0
      ? costs
          .map((value, index) =>
            value === null ? null : `${x(index).toFixed(1)},${y(value / maxCost).toFixed(1)}`,
          )
          .filter((point) => point !== null)
          .join(' ')
      : '';
  const gridLines = [0, 0.25, 0.5, 0.75, 1].map(
    (
      fraction,
    ) => html`<line class="grid" x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(fraction)}" y2="${y(fraction)}"></line>
      <text class="axis" x="${PAD.left - 6}" y="${y(fraction) + 4}" text-anchor="end">${percent(fraction)}</text>
      ${maxCost > 0 ? html`<text class="axis" x="${WIDTH - PAD.right + 6}" y="${y(fraction) + 4}">${cost(maxCost * fraction)}</text>` : ''}`,
  );
  const changes = runs.map((run, index) =>
    run.config_changed || run.instructions_changed || run.suite_changed
      ? html`<g class="change-mark"><line x1="${x(index)}" x2="${x(index)}" y1="${PAD.top}" y2="${HEIGHT - PAD.bottom}"></line>
          <path d="M${x(index) - 5},${PAD.top - 10} h10 l-5,8 z"></path>
          <title>${changeLabel(run)} at ${run.run_id}</title></g>`
      : '',
  );
  // Each point links to its run (an SVG link, reachable with Tab, named by its numbers).
  const points = runs.map((run, index) => {
    const complete = isCompleteRun(run);
    const state = complete
      ? ''
      : ` (${run.interrupted ? 'interrupted' : 'unfinished'}: ${run.summary.total - (run.summary.interrupted ?? 0)} cases finished, not on the lines)`;
    const label = `${dateTime(run.started_at)} · ${run.run_id}: ${percent(run.summary.pass_rate)} passed, ${cost(run.summary.cost_usd)}${state}`;
    return html`<a class="point-link" href="${routeHref({ page: 'run', runId: run.run_id, query: DEFAULT_CASE_QUERY }, mode)}" aria-label="${label}"><circle class="${complete ? 'pass-point' : 'stopped-point'}" cx="${x(index)}" cy="${y(run.summary.pass_rate)}" r="5"><title>${label}</title></circle><circle class="hit" cx="${x(index)}" cy="${y(run.summary.pass_rate)}" r="12"></circle></a>`;
  });
  const first = runs[0];
  const last = runs[runs.length - 1];
  const label = `Pass rate and cost of ${runs.length} runs from ${first ? dateTime(first.started_at) : ''} to ${last ? dateTime(last.started_at) : ''}; the table below lists the same numbers.`;
  return html`<figure class="chart">
    <svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="group" aria-label="${label}">
      ${gridLines}
      ${changes}
      <polyline class="pass-line" points="${passLine}" fill="none"></polyline>
      ${costLine ? html`<polyline class="cost-line" points="${costLine}" fill="none"></polyline>` : ''}
      ${points}
      <text class="axis" x="${PAD.left}" y="${HEIGHT - 8}">${first ? dateTime(first.started_at) : ''}</text>
      <text class="axis" x="${WIDTH - PAD.right}" y="${HEIGHT - 8}" text-anchor="end">${last ? dateTime(last.started_at) : ''}</text>
    </svg>
    <figcaption><span class="key key-pass">pass rate</span> <span class="key key-cost">cost</span> <span class="key key-change">agent configuration, instructions or test suite changed</span>${runs.some((run) => !isCompleteRun(run)) ? html` <span class="key key-stopped">interrupted run (open mark, off the lines)</span>` : ''}</figcaption>
  </figure>`;
}

/** `: 2 cases added, 1 removed`, or nothing when the suite kept its case names. */
function casesMoved(run: ViewRunListEntry): string {
  const added = run.suite_added?.length ?? 0;
  const removed = run.suite_removed?.length ?? 0;
  const parts = [
    ...(added ? [`${added} case${added === 1 ? '' : 's'} added`] : []),
    ...(removed ? [`${removed} ${added ? '' : `case${removed === 1 ? '' : 's'} `}removed`] : []),
  ];
  return parts.length ? `: ${parts.join(', ')}` : '';
}

/** True for a run that ran every case it selected: only those are points of the trend's lines. */
export function isCompleteRun(run: ViewRunListEntry): boolean {
  return !run.interrupted && run.planned_cases === null;
}

/** `configuration changed (a1b2c3d)`, `test suite changed (…: 2 cases added)`, `instructions changed`. */
export function changeLabel(run: ViewRunListEntry): string {
  const parts = [
    ...(run.config_changed ? [`configuration changed (${shortHash(run.agent.config_hash)})`] : []),
    ...(run.suite_changed
      ? [`test suite changed (${shortHash(run.agent.suite_hash ?? null)}${casesMoved(run)})`]
      : []),
    ...(run.instructions_changed
      ? [
          `instructions changed${run.agent.instructions_version !== undefined ? ` (version ${run.agent.instructions_version})` : ''}`,
        ]
      : []),
  ];
  return parts.join(', ');
}
