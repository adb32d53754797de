import {
  TRIAGE_GROUPS,
  TRIAGE_SORTS,
  type TriageArrangement,
  type TriageGroupOfHolds,
} from '../arrange-triage.js';
import { html, type Markup } from './markup.js';
import { renderHoldCard } from './render-hold-card.js';

/** The keyboard shortcuts of the triage queue (the help dialog and the README list them). */
export const TRIAGE_SHORTCUTS: readonly [key: string, what: string][] = [
  ['j / ↓', 'next hold (it opens; the others stay one line)'],
  ['k / ↑', 'previous hold'],
  ['a', 'approve the selected hold (asks to confirm: Enter confirms, Esc cancels)'],
  ['d', 'deny it (type the rationale first: r focuses it; asks to confirm)'],
  ['r', 'focus the rationale field'],
  ['e', 'expand or collapse the cited evidence'],
  ['Esc', 'leave the rationale field'],
  ['?', 'show or hide this help'],
];

/** The triage queue: pending holds an agent waits on, as a compact list, updated live by the client. */
export function renderTriage(options: {
  groups: TriageGroupOfHolds[];
  arrangement: TriageArrangement & { oneAtATime: boolean };
  waiting: number;
  unattended: number;
  csrfToken: string;
}): Markup {
  const { groups, arrangement, waiting, unattended, csrfToken } = options;
  const shown = groups.reduce((count, group) => count + group.holds.length, 0);
  const option = (value: string, current: string) =>
    html`<option value="${value}"${value === current ? html` selected` : ''}>${value}</option>`;
  return html`<p class="queue-summary"><span id="queue-count">${shown}</span> pending ${shown === 1 ? 'hold' : 'holds'} waiting for a decision${shown === waiting ? '' : html` (of ${waiting}: the filter hides the rest)`}. <span class="muted">The selected hold is open (<kbd>j</kbd>/<kbd>k</kbd> or a click selects); new holds appear at the end as they arrive. Press <kbd>?</kbd> for the keyboard shortcuts.</span></p>
${
  unattended === 0
    ? ''
    : html`<p class="muted">${unattended} pending ${unattended === 1 ? 'hold is' : 'holds are'} not shown: no agent waits on them any more (abandoned or past the deadline), so a decision would run nothing. The audit lists them.</p>`
}
<form class="triage-arrange" method="get" action="/console" role="search" aria-label="Arrange the holds">
<label>Filter <input name="q" type="search" value="${arrangement.filter ?? ''}" maxlength="200" placeholder="tenant, team, agent, action or tool"></label>
<label>Sort by <select name="sort">${TRIAGE_SORTS.map((value) => option(value, arrangement.sort))}</select></label>
<label>Group by <select name="group">${TRIAGE_GROUPS.map((value) => option(value, arrangement.group))}</select></label>
<label><input type="checkbox" name="view" value="one"${arrangement.oneAtATime ? html` checked` : ''}> One at a time</label>
<button type="submit">Show</button>
</form>
<p id="queue-empty" class="empty"${shown === 0 ? '' : html` hidden`}>${waiting === 0 ? 'Nothing waits for a decision.' : 'No hold matches the filter.'}</p>
<section id="queue" class="${arrangement.oneAtATime ? 'compact one-at-a-time' : 'compact'}" aria-label="Pending holds" aria-live="polite">
${groups.map(
  (group) =>
    html`${group.label === '' ? '' : html`<h2 class="triage-group">${group.label} <span class="muted">(${group.holds.length})</span></h2>`}${group.holds.map((item) => renderHoldCard(item, csrfToken))}`,
)}
</section>
<dialog id="help" aria-labelledby="help-title">
<h2 id="help-title">Keyboard shortcuts</h2>
<dl class="shortcuts">${TRIAGE_SHORTCUTS.map(([key, what]) => html`<dt><kbd>${key}</kbd></dt><dd>${what}</dd>`)}</dl>
<form method="dialog"><button type="submit">Close</button></form>
</dialog>`;
}
