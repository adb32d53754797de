import type { ActionRecord, Citations, HoldRecord, SessionRecord } from '../model/records.js';
import { slackCode, slackText } from './slack-text.js';

/** The `action_id`s of the message's buttons; their `value` is the hold's id. */
export const SLACK_APPROVE_ACTION = 'novarch_approve';
export const SLACK_DENY_ACTION = 'novarch_deny';

/** What a hold's Slack message shows. */
export interface SlackHoldView {
  hold: HoldRecord;
  session: SessionRecord;
  action?: ActionRecord | undefined;
  /** The hold verdict's citations (the rules that held it and the judge's rationale). */
  citations?: Citations | undefined;
  /** The hold in the console, e.g. `https://novarch.example.com/console/holds/hold_…`. */
  consoleUrl?: string | undefined;
}

/** A `chat.postMessage` / `chat.update` body without its channel (and `ts`). */
export interface SlackMessage {
  /** The notification's text (and what clients without blocks show). */
  text: string;
  blocks: Record<string, unknown>[];
}

const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const section = (text: string) => ({ type: 'section', text: mrkdwn(text) });

/** `1 of 2 approvals (ana)`, when the hold needs several or has any. */
function approvalsLine(hold: HoldRecord): string | undefined {
  const required = hold.policy?.approvals ?? 1;
  const approvals = hold.approvals ?? [];
  if (required <= 1 && approvals.length === 0) return undefined;
  const who = approvals.length === 0 ? 'none yet' : approvals.map((approval) => approval.operator).join(', ');
  return `*Approvals:* ${approvals.length} of ${required} (${slackText(who)})`;
}

/** How the decided hold reads: `:white_check_mark: Approved by ana`. */
function outcomeLine(hold: HoldRecord): string {
  const by = hold.decidedBy === undefined ? '' : ` by ${slackText(hold.decidedBy, 200)}`;
  const why = hold.rationale === undefined ? '' : `: ${slackText(hold.rationale, 500)}`;
  switch (hold.status) {
    case 'approved':
      return `:white_check_mark: *Approved*${by}${why}`;
    case 'denied':
      return `:no_entry: *Denied*${by}${why}`;
    case 'skipped':
      return `:fast_forward: *Skipped*${by}${why}`;
    case 'timed_out':
      return `:hourglass: *Timed out*${why}`;
    default:
      return `:hourglass_flowing_sand: *Waiting for an operator* (deadline ${slackText(hold.deadline)})`;
  }
}

/**
 * The Block Kit message of a hold: the action (tool, type, record, amount, the agent's summary and
 * input as stored, i.e. after the store's redaction), why it is held (the rules cited, the judge's
 * rationale), the approvals so far, and Approve / Deny buttons while it is pending; decided, the
 * outcome in their place. Every text an agent or a model wrote is escaped (`slackText`).
 */
export function buildSlackHoldMessage(view: SlackHoldView): SlackMessage {
  const { hold, session, action, citations } = view;
  const summary = action?.context.summary ?? '(the action is not in the store)';
  const what = action === undefined ? 'a write' : `${action.actionType} on ${action.context.recordId}`;
  const text = `Novarch hold ${hold.id}: ${what} (${session.tenantId}/${session.teamId}, agent ${session.agentId}) ${hold.status === 'pending' ? 'waits for an operator' : `was ${hold.status.replace('_', ' ')}`}`;
  const facts = [
    `*Agent:* ${slackText(session.agentId, 200)} (${slackText(session.tenantId, 100)}/${slackText(session.teamId, 100)})`,
    ...(action === undefined
      ? []
      : [
          `*Tool:* ${slackText(action.toolName, 200)} · *Type:* ${slackText(action.actionType, 200)}`,
          `*Record:* ${slackText(action.context.recordId, 200)}${action.context.amount === undefined ? '' : ` · *Amount:* ${action.context.amount}`}`,
        ]),
  ];
  const rules = citations?.ruleIds ?? [];
  const why = [
    `*Held by:* ${rules.length === 0 ? 'no rule named' : rules.map((rule) => slackText(rule, 100)).join(', ')}`,
    ...(citations?.rationale ? [`*Why:* ${slackText(citations.rationale, 1_500)}`] : []),
  ];
  const approvals = approvalsLine(hold);
  const blocks: Record<string, unknown>[] = [
    { type: 'header', text: { type: 'plain_text', text: slackText(`Hold: ${what}`, 150) } },
    section(`*Summary (written by the agent):* ${slackText(summary, 1_000)}`),
    section(facts.join('\n')),
    ...(action === undefined
      ? []
      : [section(`*Input:*\n\`\`\`${slackCode(JSON.stringify(action.input ?? null, null, 1))}\`\`\``)]),
    section(why.join('\n')),
    ...(approvals === undefined ? [] : [section(approvals)]),
    section(outcomeLine(hold)),
  ];
  if (hold.status === 'pending') {
    blocks.push({
      type: 'actions',
      block_id: 'novarch_decision',
      elements: [
        {
          type: 'button',
          action_id: SLACK_APPROVE_ACTION,
          text: { type: 'plain_text', text: 'Approve' },
          style: 'primary',
          value: hold.id,
        },
        {
          type: 'button',
          action_id: SLACK_DENY_ACTION,
          text: { type: 'plain_text', text: 'Deny' },
          style: 'danger',
          value: hold.id,
          confirm: {
            title: { type: 'plain_text', text: 'Deny this write?' },
            text: { type: 'plain_text', text: 'The agent is told it was denied via Slack.' },
            confirm: { type: 'plain_text', text: 'Deny' },
            deny: { type: 'plain_text', text: 'Cancel' },
          },
        },
      ],
    });
  }
  if (view.consoleUrl !== undefined)
    blocks.push({
      type: 'context',
      elements: [mrkdwn(`<${view.consoleUrl}|Open hold ${slackText(hold.id, 100)} in the console>`)],
    });
  return { text: slackText(text, 500), blocks };
}
