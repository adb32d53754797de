import { describeApprovals } from '../../operations/check-decider.js';
import type { TriageHold } from '../console-deps.js';
import { describeHoldDecision } from '../describe-hold-decision.js';
import { csrfField, html, idPath, jsonBlock, type Markup, timeTag } from './markup.js';
import { confirmBox } from './render-confirm.js';
import { renderTimelineEntry } from './render-timeline-entry.js';

/**
 * One hold of the triage queue: the action and its context, the agent's rationale (marked as the
 * agent's), the rules and evidence cited, the session's recent calls, and the decision form (or,
 * once decided, who decided it). Every value from the agent or the store is escaped.
 */
export function renderHoldCard(item: TriageHold, csrfToken: string): Markup {
  const { hold, session, action, verdict } = item;
  const id = hold.id;
  const decided = hold.status !== 'pending';
  const context = action?.context ?? { recordId: '', summary: '' };
  const citations = verdict?.verdict.citations;
  return html`<article class="hold${decided ? ' decided' : ''}" id="hold-${id}" data-hold-id="${id}" tabindex="-1" aria-labelledby="hold-${id}-title">
<header>
<h2 id="hold-${id}-title">${action?.actionType ?? 'unknown action'} <code>${action?.toolName ?? ''}</code>${
    context.amount === undefined ? '' : html` <span class="amount">${amountText(context)}</span>`
  }</h2>
<p class="countdown"${decided ? '' : html` data-deadline="${hold.deadline}"`}>deadline ${timeTag(hold.deadline)}</p>
<p class="scope">${session.tenantId} / ${session.teamId} / ${session.agentId} · session <a href="/console/sessions/${idPath(session.id)}">${session.id}</a> · hold <a href="/console/holds/${idPath(id)}">${id}</a></p>
</header>
<section class="context" aria-label="Action context">
<h3>The action <span class="badge agent">from the agent's tool call</span></h3>
<dl>${Object.entries(context)
    .filter(([key]) => !(key === 'unit' && context.amount !== undefined))
    .map(
      ([key, value]) =>
        html`<dt>${key}</dt><dd class="agent-text">${key === 'amount' ? amountText(context) : typeof value === 'string' ? value : JSON.stringify(value)}</dd>`,
    )}</dl>
<details><summary>tool input</summary>${jsonBlock(action?.input)}</details>
</section>
<section class="rationale" aria-label="Agent's rationale">
<h3>Agent's rationale <span class="badge agent">supplied by the agent, unverified</span></h3>
${
  action?.reasoning === undefined || action.reasoning === ''
    ? html`<p class="muted">The agent gave no rationale.</p>`
    : html`<blockquote class="agent-text">${action.reasoning}</blockquote>`
}
</section>
<section class="why" aria-label="Why it is held">
<h3>Why it is held</h3>
<p>${citations?.rationale ?? 'No verdict is stored for this action.'}</p>
<p>Rules cited: ${
    citations === undefined || citations.ruleIds.length === 0
      ? html`<span class="muted">none</span>`
      : citations.ruleIds.map((ruleId) => html`<code class="rule">${ruleId}</code> `)
  }</p>
<details class="evidence"><summary>Evidence cited (${item.citedEvidence.length})</summary>
${renderCitedEvidence(item)}
</details>
</section>
${renderApprovals(item)}
${
  hold.edit === undefined
    ? ''
    : html`<section class="edited" aria-label="Edited input"><h3>Approved with an edited input by ${hold.edit.by}</h3><p class="muted">This input was judged again and is what runs; the action above keeps the agent's own.</p>${jsonBlock(hold.edit.input)}</section>`
}
<details class="recent"><summary>Session's recent calls (${item.recentCalls.length})</summary>
<ol class="timeline">${item.recentCalls.map(renderTimelineEntry)}</ol>
</details>
${
  decided
    ? html`<p class="outcome" role="status">${outcomeText(item)}</p>`
    : renderDecisionForm(id, csrfToken)
}
</article>`;
}

/** The cited evidence, each call with its input and output. */
function renderCitedEvidence(item: TriageHold): Markup {
  return item.citedEvidence.length === 0
    ? html`<p class="muted">The verdict cites no stored evidence.</p>`
    : html`<ol>${item.citedEvidence.map(
        (evidence) =>
          html`<li><code>${evidence.toolName}</code> ${timeTag(evidence.startedAt)} <span class="muted">${evidence.id}</span>${jsonBlock(evidence.input)}${jsonBlock(evidence.output)}</li>`,
      )}</ol>`;
}

/** The form an operator decides a pending hold with: rationale, an optional edited input, the three decisions. */
function renderDecisionForm(id: string, csrfToken: string): Markup {
  return html`<form class="decision" method="post" action="/console/holds/${idPath(id)}/decision">
${csrfField(csrfToken)}
<label for="rationale-${id}">Rationale <span class="muted">(required to deny: the agent is told it; and to stop the session)</span></label>
<textarea id="rationale-${id}" name="rationale" rows="2" maxlength="2000"></textarea>
<details class="edit"><summary>Approve with an edited input</summary>
<label for="input-${id}">Tool input to run instead <span class="muted">(JSON object; checked against the tool's schema and judged by the rules again before it runs; leave empty to approve as is)</span></label>
<textarea id="input-${id}" name="input" rows="4" maxlength="20000" spellcheck="false"></textarea>
</details>
<div class="buttons">
<button type="submit" name="decision" value="approve" class="approve">Approve <kbd>a</kbd></button>
<button type="submit" name="decision" value="deny" class="deny">Deny <kbd>d</kbd></button>
<button type="submit" name="decision" value="skip" class="stop" title="The write is refused and the agent's session is stopped: it can call no tool again">Refuse and stop session</button>
</div>
${confirmBox()}
</form>
<p class="outcome" role="status" aria-live="polite"></p>`;
}

/** Who must approve the hold and who did so far (only for a hold whose rules ask more than one approval by anyone). */
function renderApprovals(item: TriageHold): Markup | string {
  const { policy } = item.hold;
  if (policy === undefined) return '';
  const approvals = item.hold.approvals ?? [];
  return html`<section class="approvals" aria-label="Approvals" data-approvals="${String(approvals.length)}" data-required="${String(policy.approvals)}">
<h3>Approvals ${String(approvals.length)} of ${String(policy.approvals)}</h3>
${
  approvals.length === 0
    ? html`<p class="muted">No approval yet.</p>`
    : html`<ul>${approvals.map(
        (approval) =>
          html`<li>${approval.operator} ${timeTag(approval.at)}${approval.rationale === undefined ? '' : html`: ${approval.rationale}`}</li>`,
      )}</ul>`
}
${policy.approverGroups.map(
  (entry) =>
    html`<p>Rule <code class="rule">${entry.ruleId}</code>: decided by group ${entry.groups.join(' or ')}</p>`,
)}
</section>`;
}

/** `Approved by ana at …: rationale`, as a decided card shows it (or the approvals so far). */
export function outcomeText(item: Pick<TriageHold, 'hold'>): string {
  if (item.hold.status === 'pending') {
    const approvals = describeApprovals(item.hold);
    if (approvals !== undefined) return `Approval recorded: ${approvals}.`;
  }
  const text = describeHoldDecision(item.hold);
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** An action's amount with its unit when the context names one: `600 USD`. */
export function amountText(context: { amount?: unknown; unit?: unknown }): string {
  const amount = typeof context.amount === 'number' ? String(context.amount) : JSON.stringify(context.amount);
  return typeof context.unit === 'string' && context.unit !== ''
    ? `${amount} ${context.unit}`
    : (amount ?? '');
}
