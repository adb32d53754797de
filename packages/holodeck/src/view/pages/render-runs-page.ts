import type {
  ViewCalibration,
  ViewGit,
  ViewRunList,
  ViewRunListEntry,
  ViewShownInterval,
} from '../view-data.js';
import { cost, count, dateTime, duration, percent, shortHash } from './format-values.js';
import { html, type SafeHtml } from './html.js';
import { DEFAULT_CASE_QUERY, type PageMode, routeHref } from './page-route.js';
import { renderOptimizations } from './render-optimization-page.js';
import { changeLabel, renderTrendChart } from './render-trend-chart.js';
import type { RenderedPage } from './rendered-page.js';

/** `a1b2c3d main (dirty)` */
export function renderGit(git: ViewGit | null): SafeHtml {
  if (!git) return html`<span class="muted">not in git</span>`;
  return html`<code title="${git.commit}">${shortHash(git.commit)}</code> ${git.branch ?? html`<span class="muted">detached</span>`}${
    git.dirty
      ? html` <span class="badge badge-dirty" title="tracked files differed from the commit">dirty</span>`
      : ''
  }`;
}

/** `running 3/5`, `interrupted`, `resumes <run>` / `retries <run>`, or nothing for a finished run. */
export function renderRunState(run: {
  planned_cases: number | null;
  interrupted: boolean;
  continued_from?: { run_id: string; mode: 'retry-errored' | 'resume' };
  summary: { total: number };
}): SafeHtml {
  if (run.planned_cases !== null)
    return html`<span class="badge badge-live">running ${run.summary.total}/${run.planned_cases}</span>`;
  const continued = run.continued_from
    ? html` <span class="badge" title="${run.continued_from.mode === 'resume' ? 'finishes the cases' : 're-runs the errored cases'} of ${run.continued_from.run_id}">${run.continued_from.mode === 'resume' ? 'resumes' : 'retries errored of'} ${run.continued_from.run_id}</span>`
    : '';
  return run.interrupted
    ? html`<span class="badge badge-interrupted">interrupted</span>${continued}`
    : html`${continued}`;
}

const NAMES_SHOWN = 5;

/** `added: a, b; removed: c` under a suite change, at most a few names each. */
function renderSuiteMoves(run: ViewRunListEntry): SafeHtml {
  const list = (label: string, names: readonly string[] | undefined) =>
    names?.length
      ? html`<div class="muted small">${label}: ${names.slice(0, NAMES_SHOWN).join(', ')}${names.length > NAMES_SHOWN ? ` and ${names.length - NAMES_SHOWN} more` : ''}</div>`
      : '';
  return html`${list('cases added', run.suite_added)}${list('cases removed', run.suite_removed)}`;
}

function row(run: ViewRunListEntry, previous: ViewRunListEntry | undefined, mode: PageMode): SafeHtml {
  const { summary } = run;
  const changes = changeLabel(run);
  return html`<tr>
    <td><a href="${routeHref({ page: 'run', runId: run.run_id, query: DEFAULT_CASE_QUERY }, mode)}">${dateTime(run.started_at)}</a> ${renderRunState(run)}<div class="muted small">${run.run_id}</div></td>
    <td>${renderGit(run.git)}</td>
    <td>${run.agent.model}<div class="muted small">${run.agent.provider}</div></td>
    <td class="num">${percent(summary.pass_rate)}</td>
    <td class="num"><span class="ok">${summary.passed}</span> / <span class="bad">${summary.failed}</span> / <span class="err">${summary.errored}</span></td>
    <td class="num">${cost(summary.cost_usd)}</td>
    <td class="num">${count(summary.token_usage.total_tokens)}</td>
    <td class="num">${duration(summary.duration_ms)}</td>
    <td>${changes ? html`<span class="badge badge-change" title="${run.agent.config_hash ?? ''}">${changes}</span>${renderSuiteMoves(run)}` : html`<span class="muted">config ${shortHash(run.agent.config_hash)}</span>`}</td>
    <td>${previous ? html`<a href="${routeHref({ page: 'compare', currentId: run.run_id, baselineId: previous.run_id }, mode)}" aria-label="Compare ${run.run_id} with the run before">compare</a>` : ''}</td>
  </tr>`;
}

function rateCell(interval: ViewShownInterval | null): SafeHtml {
  if (!interval) return html`<span class="muted">-</span>`;
  return html`${percent(interval.estimate)}<div class="muted small">[${percent(interval.lower)}, ${percent(interval.upper)}]</div>`;
}

function calibrationRow(calibration: ViewCalibration): SafeHtml {
  const { kappa, kappa_interval: interval, min_kappa: minKappa, confusion } = calibration;
  const below = minKappa !== undefined && (kappa === null || kappa < minKappa);
  return html`<tr>
    <td>${calibration.metric}<div class="muted small">${calibration.type}, ${calibration.judge_model}</div></td>
    <td>${dateTime(calibration.started_at)}<div class="muted small">${calibration.calibration_id}</div></td>
    <td class="num">${calibration.judged} / ${calibration.examples}${calibration.errored ? html`<div class="err small">${calibration.errored} errored</div>` : ''}<div class="muted small">${calibration.labels_file}</div></td>
    <td class="num">${rateCell(calibration.agreement)}</td>
    <td class="num">${kappa === null ? html`<span class="muted">undefined</span>` : kappa.toFixed(2)}${interval ? html`<div class="muted small">[${interval.lower.toFixed(2)}, ${interval.upper.toFixed(2)}]</div>` : ''}${minKappa === undefined ? '' : html`<div class="${below ? 'bad' : 'ok'} small">min ${minKappa}: ${below ? 'not met' : 'met'}</div>`}</td>
    <td class="num">${confusion.true_pass} / ${confusion.false_fail}<div class="muted small">${confusion.false_pass} / ${confusion.true_fail}</div></td>
    <td class="num">${rateCell(calibration.false_pass_rate)}</td>
    <td class="num">${rateCell(calibration.false_fail_rate)}</td>
    <td class="num">${calibration.samples < 2 ? html`<span class="muted">1 sample</span>` : html`${calibration.flipped} of ${calibration.judged}<div class="muted small">${calibration.samples} samples</div>`}</td>
  </tr>`;
}

/** The newest calibration of each judge metric against its human labels (`holodeck judge calibrate`). */
export function renderCalibrations(calibrations: readonly ViewCalibration[]): SafeHtml {
  if (!calibrations.length) return html``;
  return html`<h2>Judge calibrations</h2>
    <div class="table-wrap" tabindex="0" role="region" aria-label="Judge calibrations"><table class="calibrations">
      <caption>The newest calibration of each judge metric against its human labels (holodeck judge calibrate)</caption>
      <thead><tr><th scope="col">Judge metric</th><th scope="col">Calibrated</th><th scope="col" class="num">Judged / labelled</th><th scope="col" class="num">Agreement</th><th scope="col" class="num">Cohen's kappa</th><th scope="col" class="num">Human pass: judge pass / fail; human fail: judge pass / fail</th><th scope="col" class="num">False pass</th><th scope="col" class="num">False fail</th><th scope="col" class="num">Flipped across samples</th></tr></thead>
      <tbody>${calibrations.map(calibrationRow)}</tbody>
    </table></div>`;
}

/** Every saved run, newest first, with the trend chart above. */
export function renderRunsPage(list: ViewRunList, mode: PageMode): RenderedPage {
  const { runs, unreadable } = list;
  const agents = [...new Set(runs.map((run) => run.agent.name))];
  const title = agents.length === 1 ? `Runs of ${agents[0]}` : 'Runs';
  const body = html`<h1 tabindex="-1">${title}</h1>
    ${runs.length === 0 ? html`<p>No saved runs yet. Run <code>holodeck test agent.yaml</code>: every run is saved under <code>.holodeck/runs/</code>.</p>` : ''}
    ${renderTrendChart(runs, mode)}
    ${renderCalibrations(list.calibrations ?? [])}
    ${renderOptimizations(list.optimizations ?? [], mode)}
    ${unreadable.length ? html`<div class="notice" role="note"><p>${unreadable.length} file(s) in the runs folder could not be read:</p><ul>${unreadable.map((entry) => html`<li><code>${entry.file}</code>: ${entry.message}</li>`)}</ul></div>` : ''}
    ${
      runs.length
        ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Runs"><table class="runs">
      <caption>${runs.length} run(s), newest first</caption>
      <thead><tr><th scope="col">Started</th><th scope="col">Git</th><th scope="col">Model</th><th scope="col" class="num">Pass rate</th><th scope="col" class="num">Passed / failed / errored</th><th scope="col" class="num">Cost</th><th scope="col" class="num">Tokens</th><th scope="col" class="num">Duration</th><th scope="col">Agent</th><th scope="col"><span class="visually-hidden">Compare</span></th></tr></thead>
      <tbody>${runs.map((run, index) =>
        row(
          run,
          runs.slice(index + 1).find((older) => older.agent.name === run.agent.name),
          mode,
        ),
      )}</tbody>
    </table></div>`
        : ''
    }`;
  return { title, crumbs: [{ label: 'Runs', route: { page: 'runs' } }], body };
}
