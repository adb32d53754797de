import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Web API call the fake received (`chat.postMessage`, `chat.update`, …), as sent. */
export interface SlackApiCall {
  method: string;
  /** The `Authorization` header as sent (the bot token's `Bearer xoxb-…`). */
  authorization: string | undefined;
  contentType: string | undefined;
  /** The JSON body. */
  body: Record<string, unknown>;
  /** What the fake answered: the HTTP status and body (`{ ok: true, channel, ts }` on success). */
  status?: number;
  answer?: Record<string, unknown>;
}

/** A message posted to an interaction's `response_url` (ephemeral replies, replacements). */
export interface SlackResponseUrlPost {
  path: string;
  body: Record<string, unknown>;
}

/** What the next call of a method answers instead of success. */
export type SlackFailure =
  /** HTTP 429 with `Retry-After` (seconds), as Slack's rate limits answer. */
  | { rateLimited: number }
  /** HTTP 200 `{ ok: false, error }`, as Slack's API errors answer (e.g. `channel_not_found`). */
  | { error: string }
  /** An HTTP status with no Slack body (e.g. 503). */
  | { status: number };

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

/** A loopback stand-in for Slack's Web API and response URLs, recording every request. */
export interface FakeSlackApi {
  /** `http://127.0.0.1:PORT/api`: the Web API base (`…/chat.postMessage`). */
  apiUrl: string;
  /** The origin, where response URLs point (`…/actions/N`). */
  url: string;
  botToken: string;
  signingSecret: string;
  calls: SlackApiCall[];
  responses: SlackResponseUrlPost[];
  /** The calls of one method, in arrival order. */
  callsOf(method: string): SlackApiCall[];
  /** The next call of `method` fails this way (queue several for several calls). */
  failNext(method: string, failure: SlackFailure): void;
  /** A block_actions interaction signed as Slack signs it (v0 HMAC-SHA256 of `v0:ts:body`). */
  signInteraction(options: SlackInteractionOptions): SignedSlackInteraction;
  /** Posts a signed interaction to `requestUrl` and returns the answer's status and text. */
  sendInteraction(
    requestUrl: string,
    options: SlackInteractionOptions,
  ): Promise<{ status: number; text: string }>;
  close(): Promise<void>;
}

/** Signs `body` at `timestamp` as Slack does: `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{body}`. */
export function slackSignature(signingSecret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? Object.fromEntries(Object.entries(parsed))
      : { unparsed: text };
  } catch {
    return { unparsed: text };
  }
}

/**
 * Starts a fake Slack on 127.0.0.1: `POST /api/chat.postMessage` and `/api/chat.update` answer as
 * Slack does (`{ ok: true, channel, ts }`; `invalid_auth` for another bearer token,
 * `channel_not_found` without a channel), with failures queued by `failNext`; `POST /actions/N`
 * stands for interaction response URLs. Every request is recorded.
 */
export async function startFakeSlackApi(
  options: { botToken?: string; signingSecret?: string } = {},
): Promise<FakeSlackApi> {
  const botToken = options.botToken ?? 'xoxb-1-fake-bot-token';
  const signingSecret = options.signingSecret ?? '8f742231b10e8888abcd99eeeeee85a5';
  const calls: SlackApiCall[] = [];
  const responses: SlackResponseUrlPost[] = [];
  const failures = new Map<string, SlackFailure[]>();
  let messages = 0;
  let responseUrls = 0;
  const server = createServer(async (request, response) => {
    const text = await readBody(request);
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      response.end(JSON.stringify(body));
    };
    if (path.startsWith('/actions/')) {
      responses.push({ path, body: parseObject(text) });
      reply(200, { ok: true });
      return;
    }
    if (!path.startsWith('/api/')) {
      reply(404, { ok: false, error: 'unknown_method' });
      return;
    }
    const method = path.slice('/api/'.length);
    const body = parseObject(text);
    const call: SlackApiCall = {
      method,
      authorization: request.headers.authorization,
      contentType: request.headers['content-type'],
      body,
    };
    calls.push(call);
    const answer = (
      status: number,
      answered: Record<string, unknown>,
      headers: Record<string, string> = {},
    ) => {
      call.status = status;
      call.answer = answered;
      reply(status, answered, headers);
    };
    const failure = failures.get(method)?.shift();
    if (failure !== undefined) {
      if ('rateLimited' in failure)
        answer(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(failure.rateLimited) });
      else if ('error' in failure) answer(200, { ok: false, error: failure.error });
      else answer(failure.status, { unexpected: true });
      return;
    }
    if (request.headers.authorization !== `Bearer ${botToken}`) {
      answer(200, { ok: false, error: 'invalid_auth' });
      return;
    }
    const channel = typeof body.channel === 'string' ? body.channel : undefined;
    if (channel === undefined) {
      answer(200, { ok: false, error: 'channel_not_found' });
      return;
    }
    if (method === 'chat.postMessage') {
      messages += 1;
      answer(200, {
        ok: true,
        channel,
        ts: `1700000000.${String(messages).padStart(6, '0')}`,
        message: body,
      });
    } else if (method === 'chat.update') {
      answer(200, { ok: true, channel, ts: body.ts, text: body.text });
    } else answer(200, { ok: false, error: 'unknown_method' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  const signInteraction = (interaction: SlackInteractionOptions): SignedSlackInteraction => {
    responseUrls += 1;
    const payload = {
      type: 'block_actions',
      user: { id: interaction.userId, username: interaction.userId.toLowerCase(), team_id: 'T0FAKE' },
      api_app_id: 'A0FAKE',
      team: { id: 'T0FAKE', domain: 'fake' },
      container: { type: 'message', message_ts: interaction.messageTs, channel_id: interaction.channel },
      channel: { id: interaction.channel, name: 'holds' },
      trigger_id: `trigger-${responseUrls}`,
      response_url: `${url}/actions/${responseUrls}`,
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
          interaction.signature ??
          slackSignature(interaction.signingSecret ?? signingSecret, timestamp, body),
      },
    };
  };

  return {
    apiUrl: `${url}/api`,
    url,
    botToken,
    signingSecret,
    calls,
    responses,
    callsOf: (method) => calls.filter((call) => call.method === method),
    failNext(method, failure) {
      const queue = failures.get(method) ?? [];
      queue.push(failure);
      failures.set(method, queue);
    },
    signInteraction,
    async sendInteraction(requestUrl, interaction) {
      const signed = signInteraction(interaction);
      const answer = await fetch(requestUrl, { method: 'POST', headers: signed.headers, body: signed.body });
      return { status: answer.status, text: await answer.text() };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
