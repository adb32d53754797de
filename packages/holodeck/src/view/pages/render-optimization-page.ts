import type { ViewShownInterval } from '../view-data.js';
import type { ViewOptimization, ViewOptimizationSummary, ViewTrial } from '../view-optimization.js';
import { cost, dateTime, duration, percent } from './format-values.js';
import { html, type SafeHtml } from './html.js';
import { type PageMode, routeHref } from './page-route.js';
import { renderTextDiff } from './render-text-diff.js';
import type { RenderedPage } from './rendered-page.js';

// The page of one `holodeck test optimize` run (its trials.jsonl). Everything a model wrote
// (proposed instructions, rationales, judges' reasons in decision messages) goes through `html`,
// which escapes it.

/** What each decision code means, in the words of the page. */
const DECISIONS: Record<string, string> = {
  better: 'better beyond noise',
  cheaper: 'the same passes for less',
  noise: 'the gain is noise',
  worse: 'worse',
  governance: 'adds Novarch kills or holds',
  required: 'breaks a required case',
  unrecorded: 'requests without a recording',
  errored: 'a case errored',
  interrupted: 'stopped before it finished',
};

const STOPPED: Record<string, string> = {
  exhausted: 'every planned candidate was tried',
  'max-trials': 'the trial budget (--max-trials) was used up',
  'max-cost': 'the cost budget (--max-cost) was reached',
  'max-time': 'the time budget (--max-time) ran out',
  interrupted: 'interrupted: continue with --resume',
};

/** `+16.7 pts [+4.2, +29.2]`. */
function points(interval: ViewShownInterval): string {
  const signed = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value * 100).toFixed(1)}`;
  return `${signed(interval.estimate)} pts [${signed(interval.lower)}, ${signed(interval.upper)}]`;
}

function rate(interval: ViewShownInterval): SafeHtml {
  return html`${percent(interval.estimate)}<div class="muted small">[${percent(interval.lower)}, ${percent(interval.upper)}]</div>`;
}

/** `instructions (212 chars), temperature 0.3`: what a candidate changes. */
export function describeTrialChanges(changes: ViewTrial['changes']): string {
  const parts: string[] = [];
  if (changes.instructions !== undefined) parts.push(`instructions (${changes.instructions.length} chars)`);
  if (changes.temperature !== undefined) parts.push(`temperature ${changes.temperature}`);
  if (changes.max_turns !== undefined) parts.push(`max_turns ${changes.max_turns}`);
  if (changes.model !== undefined) parts.push(`model ${changes.model}`);
  for (const [tool, description] of Object.entries(changes.tool_descriptions ?? {}))
    parts.push(`${tool} description (${description.length} chars)`);
  return parts.length ? parts.join(', ') : 'agent.yaml as written';
}

function decisionCell(trial: ViewTrial): SafeHtml {
  if (!trial.decision) return html`<span class="muted">baseline</span>`;
  const { accepted, code, message } = trial.decision;
  return html`<span class="badge ${accepted ? 'badge-passed' : 'badge-failed'}" data-decision="${code}">${accepted ? 'accepted' : 'rejected'}: ${DECISIONS[code] ?? code}</span><div class="small">${message}</div>`;
}

function trialRow(trial: ViewTrial, winner: string | null): SafeHtml {
  return html`<tr id="trial-${trial.id}"${trial.id === winner ? html` class="winner"` : ''}>
    <th scope="row"><a href="#detail-${trial.id}">${trial.id}</a>${trial.id === winner ? html` <span class="badge badge-passed">winner</span>` : ''}<div class="muted small">${trial.origin}${trial.parent ? ` on ${trial.parent}` : ''}</div></th>
    <td>${describeTrialChanges(trial.changes)}</td>
    <td class="num">${rate(trial.pass_rate)}<div class="muted small">${trial.cases} cases, ${trial.attempts} attempts</div></td>
    <td class="num">${trial.decision ? points(trial.decision.improvement) : html`<span class="muted">-</span>`}</td>
    <td class="num">${cost(trial.cost_usd)}<div class="muted small">${duration(trial.duration_ms)}</div></td>
    <td class="num">${trial.kills} / ${trial.holds}</td>
    <td>${decisionCell(trial)}</td>
  </tr>`;
}

function settingsList(changes: ViewTrial['changes']): SafeHtml {
  const rows: [string, string][] = [];
  if (changes.temperature !== undefined) rows.push(['temperature', String(changes.temperature)]);
  if (changes.max_turns !== undefined) rows.push(['max_turns', String(changes.max_turns)]);
  if (changes.model !== undefined) rows.push(['model.name', changes.model]);
  for (const [tool, description] of Object.entries(changes.tool_descriptions ?? {}))
    rows.push([`tool ${tool}: description`, description]);
  if (!rows.length) return html``;
  return html`<dl class="settings">${rows.map(([name, value]) => html`<dt>${name}</dt><dd><code>${value}</code></dd>`)}</dl>`;
}

function trialDetail(trial: ViewTrial): SafeHtml {
  if (trial.trial === 0) return html``;
  const instructions = trial.changes.instructions;
  const diff =
    instructions === undefined
      ? ''
      : trial.parent_instructions === null
        ? html`<div class="text">${instructions}</div>`
        : renderTextDiff(trial.parent_instructions, instructions, {
            before: `the instructions of ${trial.parent ?? 't0'}`,
            after: `the instructions of ${trial.id}`,
          });
  return html`<section class="trial-detail" id="detail-${trial.id}" aria-labelledby="detail-${trial.id}-title">
    <h3 id="detail-${trial.id}-title">${trial.id}: ${describeTrialChanges(trial.changes)}</h3>
    ${trial.rationale ? html`<p><span class="muted">The proposer's reason:</span> ${trial.rationale}</p>` : ''}
    ${settingsList(trial.changes)}
    ${diff}
  </section>`;
}

function outcome(view: ViewOptimization): SafeHtml {
  const finish = view.finish;
  const stopped = finish
    ? html`<p>Finished ${dateTime(finish.finished_at)}: ${STOPPED[finish.stopped] ?? finish.stopped}.</p>`
    : html`<p><span class="badge badge-interrupted">not finished</span> Still running, or stopped: <code>holodeck test optimize ${view.agent.file} --resume ${view.optimize_id}</code> continues it.</p>`;
  const winnerId = finish?.winner ?? null;
  const winner = view.trials.find((trial) => trial.id === winnerId);
  const baseline = view.trials.find((trial) => trial.trial === 0);
  const winnerLine = winner
    ? html`<p id="winner"><strong>Winner ${winner.id}</strong>: ${describeTrialChanges(winner.changes)}, train pass rate ${percent(baseline?.pass_rate.estimate ?? 0)} → ${percent(winner.pass_rate.estimate)}${finish?.optimized_file ? html`, written to <code>${finish.optimized_file}</code>` : ''}.</p>`
    : finish
      ? html`<p id="winner">No candidate beat agent.yaml beyond noise; nothing was written.</p>`
      : '';
  const holdout = view.holdout;
  const confirmation = holdout
    ? html`<p id="holdout" class="${holdout.agrees ? 'ok' : 'bad'}"><strong>${holdout.agrees ? 'The holdout agrees' : 'The holdout does not agree'}</strong>: pass rate ${percent(holdout.baseline_pass_rate.estimate)} (agent.yaml) → ${percent(holdout.winner_pass_rate.estimate)} (${holdout.winner}) on ${view.split.holdout.length} held-out case(s), ${points(holdout.improvement)} at ${percent(holdout.improvement.confidence)}. <span class="muted">${holdout.message}</span></p>`
    : winner
      ? html`<p id="holdout" class="muted">${view.split.holdout.length ? 'Not confirmed on the holdout cases.' : 'No holdout cases: the winner is not confirmed.'}</p>`
      : '';
  return html`${stopped}${winnerLine}${confirmation}`;
}

/** The page of one optimization: settings, the outcome, every trial and what each changed. */
export function renderOptimizationPage(view: ViewOptimization): RenderedPage {
  const { settings, split } = view;
  const title = `Optimization of ${view.agent.name}`;
  const budgets = [
    `${settings.max_trials} trials`,
    settings.max_cost_usd === null ? undefined : `${cost(settings.max_cost_usd)}`,
    settings.max_time_seconds === null ? undefined : duration(settings.max_time_seconds * 1000),
  ].filter((part) => part !== undefined);
  const winner = view.finish?.winner ?? null;
  const body = html`<h1 tabindex="-1">${title}</h1>
    <p class="muted">${view.optimize_id}, started ${dateTime(view.started_at)}, <code>${view.agent.file}</code></p>
    <dl class="settings">
      <dt>Axes</dt><dd>${settings.axes.join(', ')}</dd>
      <dt>Split</dt><dd>${split.train.length} train / ${split.holdout.length} holdout cases (seed ${split.seed}, holdout ${split.fraction})</dd>
      <dt>Repeats</dt><dd>${settings.repeats} attempt(s) per case; intervals at ${percent(settings.confidence)}</dd>
      <dt>Budget</dt><dd>${budgets.join(', ')}; spent ${cost(view.spent_usd)}${settings.replay ? ' (replayed)' : ''}</dd>
    </dl>
    <h2>Outcome</h2>
    ${outcome(view)}
    <h2>Trials</h2>
    <div class="table-wrap" tabindex="0" role="region" aria-label="Trials"><table class="trials">
      <caption>Each candidate is the best one so far plus one change, judged on the train cases; it is accepted only when the interval of its improvement excludes zero</caption>
      <thead><tr><th scope="col">Trial</th><th scope="col">Candidate</th><th scope="col" class="num">Train pass rate</th><th scope="col" class="num">Improvement over the best</th><th scope="col" class="num">Cost</th><th scope="col" class="num">Kills / holds</th><th scope="col">Decision</th></tr></thead>
      <tbody>${view.trials.map((trial) => trialRow(trial, winner))}</tbody>
    </table></div>
    ${view.skipped.length ? html`<h2>Skipped proposals</h2><ul class="skipped">${view.skipped.map((skip) => html`<li>${dateTime(skip.at)}: ${skip.reason}</li>`)}</ul>` : ''}
    ${view.trials.some((trial) => trial.trial > 0) ? html`<h2>Candidates</h2>${view.trials.map(trialDetail)}` : ''}`;
  return {
    title,
    crumbs: [
      { label: 'Runs', route: { page: 'runs' } },
      { label: view.optimize_id, route: { page: 'optimization', optimizeId: view.optimize_id } },
    ],
    body,
  };
}

/** The runs page's table of optimizations, each linking to its page. */
export function renderOptimizations(list: readonly ViewOptimizationSummary[], mode: PageMode): SafeHtml {
  if (!list.length) return html``;
  const agrees = (value: boolean | null) =>
    value === null
      ? html`<span class="muted">-</span>`
      : value
        ? html`<span class="ok">agrees</span>`
        : html`<span class="bad">does not agree</span>`;
  return html`<h2>Optimizations</h2>
    <div class="table-wrap" tabindex="0" role="region" aria-label="Optimizations"><table class="optimizations">
      <caption>holodeck test optimize, newest first</caption>
      <thead><tr><th scope="col">Started</th><th scope="col" class="num">Trials</th><th scope="col" class="num">Agent as written</th><th scope="col" class="num">Best</th><th scope="col">Holdout</th><th scope="col">Stopped</th></tr></thead>
      <tbody>${list.map(
        (entry) => html`<tr>
        <td><a href="${routeHref({ page: 'optimization', optimizeId: entry.optimize_id }, mode)}">${dateTime(entry.started_at)}</a><div class="muted small">${entry.optimize_id}, ${entry.agent}</div></td>
        <td class="num">${entry.trials}</td>
        <td class="num">${entry.baseline_pass_rate === null ? '-' : percent(entry.baseline_pass_rate)}</td>
        <td class="num">${entry.best === null ? html`<span class="muted">none</span>` : html`${entry.best}: ${percent(entry.best_pass_rate ?? 0)}`}</td>
        <td>${agrees(entry.holdout_agrees)}</td>
        <td>${entry.stopped === null ? html`<span class="badge badge-interrupted">not finished</span>` : (STOPPED[entry.stopped] ?? entry.stopped)}</td>
      </tr>`,
      )}</tbody>
    </table></div>`;
}
