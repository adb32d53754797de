import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type SignedSlackInteraction,
  type SlackInteractionOptions,
  signSlackInteraction,
} from './sign-slack-interaction.js';

export {
  type SignedSlackInteraction,
  type SlackInteractionOptions,
  slackSignature,
} from './sign-slack-interaction.js';

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

/** How the fake answers a Web API call: HTTP status, JSON body, extra headers. */
interface WebApiAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * Slack's answer to `method` called with `authorization` and `body`: the queued `failure` if any,
 * `invalid_auth` for another token, `channel_not_found` without a channel, else success (a new
 * `nextTs()` for each posted message).
 */
function webApiAnswer(
  method: string,
  authorization: string | undefined,
  body: Record<string, unknown>,
  {
    botToken,
    failure,
    nextTs,
  }: { botToken: string; failure: SlackFailure | undefined; nextTs: () => string },
): WebApiAnswer {
  if (failure !== undefined) {
    if ('rateLimited' in failure)
      return {
        status: 429,
        body: { ok: false, error: 'ratelimited' },
        headers: { 'retry-after': String(failure.rateLimited) },
      };
    if ('error' in failure) return { status: 200, body: { ok: false, error: failure.error } };
    return { status: failure.status, body: { unexpected: true } };
  }
  if (authorization !== `Bearer ${botToken}`)
    return { status: 200, body: { ok: false, error: 'invalid_auth' } };
  const channel = typeof body.channel === 'string' ? body.channel : undefined;
  if (channel === undefined) return { status: 200, body: { ok: false, error: 'channel_not_found' } };
  if (method === 'chat.postMessage')
    return { status: 200, body: { ok: true, channel, ts: nextTs(), message: body } };
  if (method === 'chat.update')
    return { status: 200, body: { ok: true, channel, ts: body.ts, text: body.text } };
  return { status: 200, body: { ok: false, error: 'unknown_method' } };
}

/** What the fake's request handler records and answers from. */
interface FakeSlackState {
  botToken: string;
  calls: SlackApiCall[];
  responses: SlackResponseUrlPost[];
  failures: Map<string, SlackFailure[]>;
  nextTs: () => string;
}

/** The fake's request handler: records each request, answers response URLs and Web API calls. */
function answerFakeSlack({
  botToken,
  calls,
  responses,
  failures,
  nextTs,
}: FakeSlackState): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return async (request, response) => {
    const text = await readBody(request);
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      response
        .writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
        .end(JSON.stringify(body));
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
    const answered = webApiAnswer(method, request.headers.authorization, body, {
      botToken,
      failure: failures.get(method)?.shift(),
      nextTs,
    });
    call.status = answered.status;
    call.answer = answered.body;
    reply(answered.status, answered.body, answered.headers);
  };
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
  const nextTs = () => {
    messages += 1;
    return `1700000000.${String(messages).padStart(6, '0')}`;
  };
  let responseUrls = 0;
  const server = createServer(answerFakeSlack({ botToken, calls, responses, failures, nextTs }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  const signInteraction = (interaction: SlackInteractionOptions): SignedSlackInteraction => {
    responseUrls += 1;
    return signSlackInteraction(interaction, { url, number: responseUrls, signingSecret });
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
