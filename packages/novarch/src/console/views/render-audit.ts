import type { AuditEntry } from '../../model/novarch-store.js';
import { type AuditQuery, auditQueryString } from '../audit-query.js';
import { describeHoldDecision } from '../describe-hold-decision.js';
import { AUDIT_PAGE_SIZE } from '../search-store-audit.js';
import { html, idPath, type Markup, timeTag } from './markup.js';
import { pendingHoldLabel } from './pending-hold-label.js';
import { renderMessage } from './render-layout.js';

const FIELDS: { name: keyof AuditQuery; label: string; type?: string }[] = [
  { name: 'tenant', label: 'Tenant' },
  { name: 'team', label: 'Team' },
  { name: 'agent', label: 'Agent' },
  { name: 'session', label: 'Session' },
  { name: 'rule', label: 'Rule' },
  { name: 'from', label: 'From (UTC day)', type: 'date' },
  { name: 'to', label: 'To (UTC day)', type: 'date' },
];

/** The audit search form, its results and the export links of the same search. */
export function renderAudit(options: {
  query: Partial<Record<keyof AuditQuery, string>>;
  entries?: AuditEntry[];
  errors?: string[];
  exportQuery?: Partial<AuditQuery>;
  /** The time pending holds are judged at (waiting, abandoned, expired); default now. */
  now?: Date;
}): Markup {
  const { query, entries, errors } = options;
  return html`<form class="audit-search" method="get" action="/console/audit" role="search" aria-label="Audit search">
${FIELDS.map(
  (field) =>
    html`<label>${field.label} <input name="${field.name}" type="${field.type ?? 'text'}" value="${query[field.name] ?? ''}"></label>`,
)}
<label>Verdict <select name="verdict">${['', 'pass', 'kill', 'hold'].map(
    (value) =>
      html`<option value="${value}"${query.verdict === value ? html` selected` : ''}>${value === '' ? 'any' : value}</option>`,
  )}</select></label>
<button type="submit">Search</button>
</form>
${(errors ?? []).map((error) => renderMessage('error', error))}
${entries === undefined ? '' : renderResults(entries, options.exportQuery ?? {}, options.now ?? new Date())}`;
}

/**
 * "Showing N of M", the export links (every match, not just this page) and the page links. The
 * page lists the newest entries first (page 1: the most recent); exports stay oldest first.
 */
function renderResults(found: AuditEntry[], exportQuery: Partial<AuditQuery>, now: Date): Markup {
  const all = [...found].reverse();
  const suffix = auditQueryString(exportQuery);
  const pages = Math.max(1, Math.ceil(all.length / AUDIT_PAGE_SIZE));
  const page = Math.min(Number(exportQuery.page ?? 1), pages);
  const first = (page - 1) * AUDIT_PAGE_SIZE;
  const entries = all.slice(first, first + AUDIT_PAGE_SIZE);
  const link = (to: number, label: string, rel: string) =>
    html`<a href="/console/audit${auditQueryString(exportQuery, to)}" rel="${rel}">${label}</a>`;
  return html`<p class="exports">Showing <span id="audit-shown">${entries.length}</span> of <span id="audit-count">${all.length}</span> ${all.length === 1 ? 'entry' : 'entries'}${entries.length === 0 ? '' : html` (${first + 1}–${first + entries.length})`}, newest first. Export all ${all.length} of this search: <a href="/console/audit/export.csv${suffix}" download>CSV</a> · <a href="/console/audit/export.json${suffix}" download>JSON</a></p>
${pages === 1 ? '' : html`<nav class="pages" aria-label="Audit pages">Page <span id="audit-page">${page}</span> of ${pages}${page > 1 ? html` · ${link(page - 1, 'Previous', 'prev')}` : ''}${page < pages ? html` · ${link(page + 1, 'Next', 'next')}` : ''}</nav>`}
${
  entries.length === 0
    ? html`<p class="empty">No entry matches.</p>`
    : html`<table class="audit">
<caption>Audit trail</caption>
<thead><tr><th scope="col">Time</th><th scope="col">Tenant / team / agent</th><th scope="col">Session</th><th scope="col">Action</th><th scope="col">Record <span class="badge agent">agent</span></th><th scope="col">Verdict</th><th scope="col">Rules</th><th scope="col">Hold</th></tr></thead>
<tbody>${entries.map(
        (entry) => html`<tr>
<td>${timeTag(entry.action.createdAt)}</td>
<td>${entry.session.tenantId} / ${entry.session.teamId} / ${entry.session.agentId}</td>
<td><a href="/console/sessions/${idPath(entry.session.id)}">${entry.session.id}</a></td>
<td>${entry.action.actionType} <code>${entry.action.toolName}</code></td>
<td class="agent-text">${entry.action.context.recordId} ${entry.action.context.summary}</td>
<td>${entry.verdict === undefined ? '—' : html`<span class="verdict verdict-${entry.verdict.verdict.kind}">${entry.verdict.verdict.kind}</span> <span class="muted">${entry.verdict.source}</span>`}</td>
<td>${entry.verdict?.verdict.citations.ruleIds.join(', ') ?? ''}</td>
<td>${entry.hold === undefined ? '' : entry.hold.status === 'pending' ? pendingHoldLabel(entry.hold, now) : describeHoldDecision(entry.hold)}</td>
</tr>`,
      )}</tbody>
</table>`
}`;
}
