import { createHmac, timingSafeEqual } from 'node:crypto';

/** How old (or how far ahead) a Slack request's timestamp may be: 5 minutes, as Slack advises. */
export const SLACK_REPLAY_WINDOW_SECONDS = 300;

/** A request to check: its raw body and the two headers Slack signs it with. */
export interface SlackSignedRequest {
  body: string;
  /** `X-Slack-Request-Timestamp`: Unix seconds. */
  timestamp: string | undefined;
  /** `X-Slack-Signature`: `v0=` + hex HMAC-SHA256. */
  signature: string | undefined;
}

/**
 * Why a request did not come from Slack, or undefined when it did: Slack signs `v0:{timestamp}:{body}`
 * with the app's signing secret (HMAC-SHA256, `v0=` + hex), compared in constant time; a timestamp
 * more than 5 minutes from this server's clock is refused, so a captured request cannot be replayed.
 */
export function whyNotFromSlack(
  request: SlackSignedRequest,
  signingSecret: string,
  nowMs: number = Date.now(),
): string | undefined {
  const { timestamp, signature, body } = request;
  if (timestamp === undefined || signature === undefined)
    return 'the request has no X-Slack-Signature or X-Slack-Request-Timestamp header: it was not sent by Slack';
  if (!/^[0-9]{1,12}$/.test(timestamp))
    return 'X-Slack-Request-Timestamp is not a Unix time in seconds: the request was not sent by Slack';
  const age = Math.round(nowMs / 1000) - Number(timestamp);
  if (age > SLACK_REPLAY_WINDOW_SECONDS)
    return `the request was signed ${age} s ago, more than ${SLACK_REPLAY_WINDOW_SECONDS} s: refused as a possible replay (check this server's clock if Slack sent it just now)`;
  if (age < -SLACK_REPLAY_WINDOW_SECONDS)
    return `the request's timestamp is ${-age} s ahead of this server's clock, more than ${SLACK_REPLAY_WINDOW_SECONDS} s: refused (check this server's clock)`;
  const expected = Buffer.from(
    `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`,
    'utf8',
  );
  const given = Buffer.from(signature, 'utf8');
  // timingSafeEqual needs equal lengths; a length mismatch is a mismatch (the length is no secret).
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return "the X-Slack-Signature does not match the body signed with the app's signing secret: check $NOVARCH_SLACK_SIGNING_SECRET (the app's Basic Information page)";
  return undefined;
}
