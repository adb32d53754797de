import { pendingHoldState } from '../../model/hold-state.js';
import type { SessionPage, SessionTimeline, TimelineEntry } from '../console-deps.js';
import { csrfField, html, idPath, type Markup, timeTag } from './markup.js';
import { pendingHoldLabel } from './pending-hold-label.js';
import { confirmBox } from './render-confirm.js';
import { renderMessage } from './render-layout.js';
import { renderTimelineEntry } from './render-timeline-entry.js';

/** Live and recent sessions, most recent first, a page at a time, with a search. */
export function renderSessions(listed: SessionPage, search = ''): Markup {
  const { sessions, total, page, pages } = listed;
  const link = (to: number, label: string, rel: string) => {
    const params = new URLSearchParams();
    if (search !== '') params.set('q', search);
    params.set('page', String(to));
    return html`<a href="/console/sessions?${params.toString()}" rel="${rel}">${label}</a>`;
  };
  const form = html`<form class="session-search" method="get" action="/console/sessions" role="search" aria-label="Session search">
<label>Search <input name="q" type="search" value="${search}" maxlength="200" placeholder="session id, tenant, team or agent"></label>
<button type="submit">Search</button>
</form>`;
  if (total === 0)
    return html`${form}<p class="empty">${search === '' ? 'No sessions yet.' : 'No session matches.'}</p>`;
  return html`${form}
<p class="count">Showing <span id="sessions-shown">${sessions.length}</span> of <span id="sessions-count">${total}</span> ${total === 1 ? 'session' : 'sessions'}, most recent first.</p>
${pages === 1 ? '' : html`<nav class="pages" aria-label="Session pages">Page <span id="sessions-page">${page}</span> of ${pages}${page > 1 ? html` · ${link(page - 1, 'Previous', 'prev')}` : ''}${page < pages ? html` · ${link(page + 1, 'Next', 'next')}` : ''}</nav>`}
<table class="sessions">
<caption>Sessions of your tenants, most recent first</caption>
<thead><tr><th scope="col">Session</th><th scope="col">Tenant / team / agent</th><th scope="col">Started</th><th scope="col">Last call</th><th scope="col">Calls</th><th scope="col">Status</th></tr></thead>
<tbody>${sessions.map(
    (item) => html`<tr class="status-${item.status}">
<td><a href="/console/sessions/${idPath(item.session.id)}">${item.session.id}</a></td>
<td>${item.session.tenantId} / ${item.session.teamId} / ${item.session.agentId}</td>
<td>${timeTag(item.session.startedAt)}</td>
<td>${timeTag(item.lastActivityAt)}</td>
<td>${item.calls}</td>
<td><span class="badge status-${item.status}">${item.status}</span>${item.pendingHolds > 0 ? html` <a href="/console">${item.pendingHolds} on hold</a>` : ''}${
      item.session.killReason === undefined
        ? ''
        : html` <span class="muted">${item.session.killReason}</span>`
    }</td>
</tr>`,
  )}</tbody>
</table>`;
}

/** One session: its scope, its timeline, and the kill form (or how it was killed). */
export function renderSessionTimeline(options: {
  timeline: SessionTimeline;
  csrfToken: string;
  error?: string;
  notice?: string;
}): Markup {
  const { session, entries } = options.timeline;
  return html`${renderMessage('error', options.error)}${renderMessage('notice', options.notice)}
<dl class="session-facts">
<dt>Tenant / team / agent</dt><dd>${session.tenantId} / ${session.teamId} / ${session.agentId}</dd>
<dt>Started</dt><dd>${timeTag(session.startedAt)}</dd>
<dt>Hold wait</dt><dd>${session.holdWaitSeconds} s</dd>
<dt>Status</dt><dd id="session-status">${
    session.killedAt === undefined
      ? sessionStatusText(entries)
      : html`killed at ${timeTag(session.killedAt)}: <span class="kill-reason">${session.killReason ?? ''}</span>`
  }</dd>
</dl>
${
  session.killedAt === undefined
    ? html`<form class="kill" method="post" action="/console/sessions/${idPath(session.id)}/kill">
${csrfField(options.csrfToken)}
<label for="kill-reason">Reason for the kill <span class="muted">(required; stored and shown to the agent)</span></label>
<textarea id="kill-reason" name="reason" rows="2" maxlength="2000" required></textarea>
<button type="submit" class="danger">Kill session</button>
${confirmBox()}
</form>`
    : ''
}
<h2>Timeline</h2>
${
  entries.length === 0
    ? html`<p class="empty">No calls yet.</p>`
    : html`<ol class="timeline">${entries.map(renderTimelineEntry)}</ol>`
}`;
}

/**
 * A session that is not killed, in the words its holds use on Triage and in the audit: waiting on
 * a hold, stopped with a hold nothing waits on (abandoned, expired), or running.
 */
export function sessionStatusText(entries: readonly TimelineEntry[], now: Date = new Date()): string {
  const pending = entries.flatMap((entry) =>
    entry.type === 'write' && entry.hold?.status === 'pending' ? [entry.hold] : [],
  );
  const waiting = pending.filter((hold) => pendingHoldState(hold, now) === 'waiting');
  if (waiting.length > 0) return `running: waiting on hold ${waiting.map((hold) => hold.id).join(', ')}`;
  const last = pending.at(-1);
  if (last !== undefined)
    return `stopped: its agent no longer waits on hold ${last.id}, ${pendingHoldLabel(last, now)}`;
  return 'running';
}
