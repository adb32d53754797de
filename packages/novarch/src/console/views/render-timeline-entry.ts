import type { TimelineEntry } from '../console-deps.js';
import { describeHoldDecision } from '../describe-hold-decision.js';
import { html, jsonBlock, type Markup, timeTag } from './markup.js';
import { pendingHoldLabel } from './pending-hold-label.js';

/** One read, write or kill of a session, as a list item (tool inputs and outputs expandable). */
export function renderTimelineEntry(entry: TimelineEntry): Markup {
  switch (entry.type) {
    case 'read': {
      const { evidence } = entry;
      return html`<li class="event read">
${timeTag(entry.at)} <span class="kind">read</span> <code>${evidence.toolName}</code>${evidence.isError ? html` <span class="badge bad">error</span>` : ''}
<details><summary>input and output</summary>${jsonBlock(evidence.input)}${jsonBlock(evidence.output)}</details>
</li>`;
    }
    case 'write': {
      const { action, verdicts, hold } = entry;
      return html`<li class="event write">
${timeTag(entry.at)} <span class="kind">write</span> <code>${action.toolName}</code> ${action.actionType}
<span class="agent-text">${action.context.summary}</span>
${verdicts.map(
  (record) =>
    html`<span class="verdict verdict-${record.verdict.kind}">${record.verdict.kind}</span> <span class="muted">(${record.source}${
      record.verdict.citations.ruleIds.length > 0
        ? html`: ${record.verdict.citations.ruleIds.join(', ')}`
        : ''
    })</span> `,
)}
${hold === undefined ? '' : html`<span class="hold-status">hold ${hold.status === 'pending' ? pendingHoldLabel(hold) : describeHoldDecision(hold)}</span>`}
${action.releasedAt === undefined ? '' : html`<span class="badge ok">ran</span>`}
<details><summary>tool input</summary>${jsonBlock(action.input)}</details>
</li>`;
    }
    case 'kill':
      return html`<li class="event kill">${timeTag(entry.at)} <span class="kind">killed</span> ${entry.session.killReason ?? ''}</li>`;
  }
}
