import type { TriageHold } from '../console-deps.js';
import { html, type Markup } from './markup.js';
import { renderHoldCard } from './render-hold-card.js';

/** The keyboard shortcuts of the triage queue (the help dialog and the README list them). */
export const TRIAGE_SHORTCUTS: readonly [key: string, what: string][] = [
  ['j / ↓', 'next hold'],
  ['k / ↑', 'previous hold'],
  ['a', 'approve the selected hold (asks to confirm: Enter confirms, Esc cancels)'],
  ['d', 'deny it (type the rationale first: r focuses it; asks to confirm)'],
  ['r', 'focus the rationale field'],
  ['e', 'expand or collapse the cited evidence'],
  ['Esc', 'leave the rationale field'],
  ['?', 'show or hide this help'],
];

/** The triage queue: pending holds an agent waits on, oldest first, updated live by the client. */
export function renderTriage(options: {
  holds: TriageHold[];
  unattended: number;
  csrfToken: string;
}): Markup {
  const { holds, unattended, csrfToken } = options;
  return html`<p class="queue-summary"><span id="queue-count">${holds.length}</span> pending ${holds.length === 1 ? 'hold' : 'holds'} waiting for a decision. <span class="muted">New holds appear here as they arrive. Press <kbd>?</kbd> for the keyboard shortcuts.</span></p>
${
  unattended === 0
    ? ''
    : html`<p class="muted">${unattended} pending ${unattended === 1 ? 'hold is' : 'holds are'} not shown: no agent waits on them any more (abandoned or past the deadline), so a decision would run nothing.</p>`
}
<p id="queue-empty" class="empty"${holds.length === 0 ? '' : html` hidden`}>Nothing waits for a decision.</p>
<section id="queue" aria-label="Pending holds" aria-live="polite">
${holds.map((item) => renderHoldCard(item, csrfToken))}
</section>
<dialog id="help" aria-labelledby="help-title">
<h2 id="help-title">Keyboard shortcuts</h2>
<dl class="shortcuts">${TRIAGE_SHORTCUTS.map(([key, what]) => html`<dt><kbd>${key}</kbd></dt><dd>${what}</dd>`)}</dl>
<form method="dialog"><button type="submit">Close</button></form>
</dialog>`;
}
