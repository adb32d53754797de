import { type FakeSlackApi, startFakeSlackApi } from '@holodeck/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SlackApiClient } from '../../../src/notify/slack-api-client.js';
import { slackText } from '../../../src/notify/slack-text.js';

// The Slack client against the fake Slack Web API: what is retried, what is given up at once.

let slack: FakeSlackApi;
let client: SlackApiClient;
beforeAll(async () => {
  slack = await startFakeSlackApi();
  client = new SlackApiClient({ botToken: slack.botToken, apiUrl: slack.apiUrl, backoffMs: () => 5 });
});
afterAll(() => slack.close());

it('retries a 503 and a transient Slack error, then answers Slack’s ok response', async () => {
  slack.failNext('chat.postMessage', { status: 503 });
  slack.failNext('chat.postMessage', { error: 'internal_error' });
  const answer = await client.call('chat.postMessage', { channel: 'C0X', text: 'hi' });
  expect(answer).toMatchObject({ ok: true, channel: 'C0X' });
  expect(slack.callsOf('chat.postMessage').map((call) => call.status)).toEqual([503, 200, 200]);
});

it('gives up at once on a lasting Slack error, and on a Retry-After longer than allowed', async () => {
  slack.failNext('chat.update', { error: 'not_in_channel' });
  await expect(client.call('chat.update', { channel: 'C0X', ts: '1.2' })).rejects.toThrow(
    'Slack chat.update failed: not_in_channel',
  );
  slack.failNext('chat.update', { rateLimited: 120 });
  await expect(client.call('chat.update', { channel: 'C0X', ts: '1.2' })).rejects.toThrow(
    'Slack chat.update failed: rate limited (429, Retry-After 120): longer than 30 s, given up',
  );
  const wrong = new SlackApiClient({ botToken: 'xoxb-wrong-token', apiUrl: slack.apiUrl });
  const refused = wrong.call('chat.postMessage', { channel: 'C0X' });
  await expect(refused).rejects.toThrow('Slack chat.postMessage failed: invalid_auth');
  await expect(refused).rejects.not.toThrow('xoxb-wrong-token');
});

it('escapes what an agent wrote for mrkdwn and drops control characters', () => {
  expect(slackText('<!here> a & b <@U1|x>\u001b[31m')).toBe('&lt;!here&gt; a &amp; b &lt;@U1|x&gt;[31m');
  expect(slackText('x'.repeat(10), 5)).toBe('xxxx…');
});
