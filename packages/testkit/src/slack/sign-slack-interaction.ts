import { createHmac } from 'node:crypto';

/** A button click, as Slack sends it to the app's interactivity request URL. */
export interface SlackInteractionOptions {
  /** The clicking user's id, e.g. `U0ANA`. */
  userId: string;
  actionId: string;
  /** The button's `value`. */
  value: string;
  /** The message the button is on. */
  channel: string;
  messageTs: string;
  /** Signs with this secret (default the fake's). */
  signingSecret?: string;
  /** The `X-Slack-Request-Timestamp` (s; default now). */
  timestamp?: number;
  /** Replaces the computed `X-Slack-Signature`. */
  signature?: string;
}

/** A signed interaction request: the form body and the headers Slack sends with it. */
export interface SignedSlackInteraction {
  body: string;
  headers: Record<string, string>;
}

/** Signs `body` at `timestamp` as Slack does: `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{body}`. */
export function slackSignature(signingSecret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

/**
 * The `number`th block_actions interaction of a fake Slack at `url`, signed as Slack signs it; its
 * `response_url` is `${url}/actions/${number}`.
 */
export function signSlackInteraction(
  interaction: SlackInteractionOptions,
  { url, number, signingSecret }: { url: string; number: number; signingSecret: string },
): SignedSlackInteraction {
  const payload = {
    type: 'block_actions',
    user: { id: interaction.userId, username: interaction.userId.toLowerCase(), team_id: 'T0FAKE' },
    api_app_id: 'A0FAKE',
    team: { id: 'T0FAKE', domain: 'fake' },
    container: { type: 'message', message_ts: interaction.messageTs, channel_id: interaction.channel },
    channel: { id: interaction.channel, name: 'holds' },
    trigger_id: `trigger-${number}`,
    response_url: `${url}/actions/${number}`,
    actions: [
      {
        type: 'button',
        action_id: interaction.actionId,
        block_id: 'novarch_decision',
        value: interaction.value,
        action_ts: `${Math.floor(Date.now() / 1000)}.000100`,
      },
    ],
  };
  const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
  const timestamp = interaction.timestamp ?? Math.floor(Date.now() / 1000);
  return {
    body,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature':
        interaction.signature ?? slackSignature(interaction.signingSecret ?? signingSecret, timestamp, body),
    },
  };
}
