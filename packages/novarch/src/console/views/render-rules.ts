import type { TeamCalibration } from '../console-deps.js';
import { html, type Markup } from './markup.js';

const decimal = (value: number | null) => (value === null ? '—' : value.toFixed(2));

/**
 * `novarch rules calibrate` per team: each rule's agreement with the operators (Cohen's kappa and
 * its interval, the confusion matrix) and the holds it caused that operators approved.
 */
export function renderRules(teams: TeamCalibration[] | undefined, isAdmin: boolean): Markup {
  if (!isAdmin)
    return html`<p class="empty">Rules calibration is for admins (as <code>GET /v1/rules/{tenant}/{team}/calibration</code> is): ask an admin, or run <code>novarch rules calibrate</code>.</p>`;
  if (teams === undefined)
    return html`<p class="empty">This console has no rules pushed to a server to measure: run <code>novarch rules calibrate</code> on a rules file.</p>`;
  if (teams.length === 0)
    return html`<p class="empty">No team of your tenants has rules pushed to this server (<code>novarch rules push FILE --server URL --tenant T</code>).</p>`;
  return html`<p class="muted">Each team's latest rules re-judged on its decided holds: a refusal (hold or kill) by the rule against the operator's decision. Kappa 1 is full agreement, 0 chance; "needless holds" are holds the rule caused that an operator approved.</p>
${teams.map((team) => renderTeam(team))}`;
}

function renderTeam(team: TeamCalibration): Markup {
  const title = html`<h2>${team.tenantId} / ${team.teamId} <span class="muted">rules ${team.version === null ? '' : `v${team.version}`}</span></h2>`;
  if ('error' in team)
    return html`<section class="rules-team">${title}${html`<p class="message error">${team.error}</p>`}</section>`;
  const { report } = team;
  return html`<section class="rules-team">${title}
<p>${report.labelled} decided ${report.labelled === 1 ? 'action' : 'actions'} measured (${report.fromHolds} from holds, ${report.fromLabels} from labels)${report.notRejudged === 0 ? '' : `; ${report.notRejudged} not re-judged (their rules need an LLM judge)`}${report.reversedPasses === 0 ? '' : `; ${report.reversedPasses} passed writes labelled kill`}.</p>
${
  report.rules.length === 0
    ? html`<p class="empty">No rule applied to a decided action yet.</p>`
    : html`<table class="rules-calibration">
<caption>Rules of ${team.tenantId} / ${team.teamId} against the operators</caption>
<thead><tr><th scope="col">Rule</th><th scope="col">Judged</th><th scope="col">Kappa</th><th scope="col">Kappa interval</th><th scope="col">Both refused</th><th scope="col">Rule refused, operator passed</th><th scope="col">Rule passed, operator refused</th><th scope="col">Both passed</th><th scope="col">Needless holds</th></tr></thead>
<tbody>${report.rules.map(
        (rule) => html`<tr>
<td><code class="rule">${rule.ruleId}</code>${rule.llm ? html` <span class="badge">LLM</span>` : ''}</td>
<td>${rule.judged}</td>
<td>${decimal(rule.kappa)}</td>
<td>${rule.kappaInterval === null ? '—' : `${decimal(rule.kappaInterval.lower)} – ${decimal(rule.kappaInterval.upper)}`}</td>
<td>${rule.confusion.both_kill}</td>
<td>${rule.confusion.rule_kill_human_pass}</td>
<td>${rule.confusion.rule_pass_human_kill}</td>
<td>${rule.confusion.both_pass}</td>
<td>${rule.needlessHolds}</td>
</tr>`,
      )}</tbody>
</table>`
}
</section>`;
}
