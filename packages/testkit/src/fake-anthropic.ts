import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeAnthropicOptions, FakeAnthropicServer } from './fake-anthropic-server.js';
import { classifyMessagesRequest } from './request/classify-request.js';
import { type MessagesBody, type ParsedMessagesBody, parseMessagesBody } from './request/messages-body.js';
import { flattenHeaders, parseJson, readBody } from './request/read-request.js';
import type { RecordedRequest, RequestKind } from './request/recorded-request.js';
import { RequestLog } from './request/request-log.js';
import { completenessReport } from './script/completeness-report.js';
import { resolveStep } from './script/resolve-step.js';
import { ScriptQueue } from './script/script-queue.js';
import type { ResolvedStep, ScriptStep } from './script/script-step.js';
import { reply } from './script/step-builders.js';
import { errorMessage } from './support.js';
import { answerStep, writeApiError } from './wire/answer-step.js';
import { estimateTokens } from './wire/estimate-tokens.js';
import { closeLoopbackServer, type LoopbackServer } from './wire/loopback-server.js';
import { writeJson } from './wire/write-json.js';

const MESSAGES_PATH = '/v1/messages';
const COUNT_TOKENS_PATH = '/v1/messages/count_tokens';
// The CLI's connectivity check (HEAD <base>/api/hello), sent unless
// CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1.
const HELLO_PATH = '/api/hello';

/** The server behind `startFakeAnthropic()`: routes, records and answers requests. */
export class FakeAnthropic implements FakeAnthropicServer {
  readonly url: string;
  readonly port: number;
  private readonly queue: ScriptQueue<ScriptStep>;
  private readonly log: RequestLog<Exclude<RequestKind, 'unexpected'>, RecordedRequest>;
  /** Agent-loop requests seen, including those that found the script exhausted. */
  private agentLoopSeen = 0;
  private readonly closing = new AbortController();

  constructor(
    private readonly listening: LoopbackServer,
    private readonly options: FakeAnthropicOptions,
  ) {
    this.port = listening.port;
    this.url = listening.url;
    this.log = new RequestLog(options.onRequest);
    this.queue = new ScriptQueue<ScriptStep>(options.repeatLast ?? false);
    this.queue.append(options.steps ?? []);
  }

  get requests(): readonly RecordedRequest[] {
    return this.log.of('agent-loop');
  }
  get auxiliaryRequests(): readonly RecordedRequest[] {
    return this.log.of('auxiliary');
  }
  get unexpected(): readonly RecordedRequest[] {
    return this.log.of('unexpected');
  }
  get allRequests(): readonly RecordedRequest[] {
    return this.log.all;
  }
  get remainingSteps(): readonly ScriptStep[] {
    return this.queue.remaining();
  }

  script(...steps: ScriptStep[]): void {
    this.queue.append(steps);
  }

  assertComplete(): void {
    const report = completenessReport(
      'fake-anthropic',
      [{ noun: 'agent-loop', remaining: this.queue.remaining(), answered: this.requests.length }],
      this.unexpected,
    );
    if (report !== undefined) throw new Error(report);
  }

  reset(): void {
    this.queue.clear();
    this.log.clear();
    this.agentLoopSeen = 0;
  }

  close(): Promise<void> {
    this.closing.abort();
    return closeLoopbackServer(this.listening.server);
  }

  /** Entry point for every HTTP request. Never throws: failures become 500 answers. */
  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      await this.route(request, response);
    } catch (error) {
      const message = errorMessage(error);
      writeApiError(response, 500, {
        type: 'api_error',
        message: `fake-anthropic: ${message}`,
        requestId: 'req_fake_error',
      });
    }
  }

  private record(
    request: IncomingMessage,
    rawBody: string,
    kind: RequestKind,
    reason: string,
    messagesBody?: MessagesBody,
  ): RecordedRequest {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const json = parseJson(rawBody);
    return this.log.add((sequence) => ({
      sequence,
      method: request.method ?? 'GET',
      path: url.pathname,
      query: url.search,
      headers: flattenHeaders(request),
      body: json.ok ? json.value : undefined,
      rawBody,
      messagesBody,
      receivedAt: new Date(),
      kind,
      reason,
    }));
  }

  private requestId(recorded: RecordedRequest): string {
    return `req_fake_${recorded.sequence}`;
  }

  private async route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawBody = await readBody(request);
    const method = request.method ?? 'GET';
    const { pathname } = new URL(request.url ?? '/', 'http://127.0.0.1');

    if (method === 'POST' && pathname === MESSAGES_PATH) {
      await this.handleMessages(request, response, rawBody);
      return;
    }
    if (method === 'POST' && pathname === COUNT_TOKENS_PATH) {
      const recorded = this.record(request, rawBody, 'auxiliary', 'count_tokens');
      writeJson(
        response,
        200,
        { input_tokens: estimateTokens(rawBody) },
        { 'request-id': this.requestId(recorded) },
      );
      return;
    }
    if ((method === 'HEAD' || method === 'GET') && pathname === HELLO_PATH) {
      this.record(request, rawBody, 'auxiliary', 'connectivity check');
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(method === 'GET' ? 'ok' : undefined);
      return;
    }
    const reason = `no route for ${method} ${pathname}: answered 404`;
    const recorded = this.record(request, rawBody, 'unexpected', reason);
    writeApiError(response, 404, {
      type: 'not_found_error',
      message: `fake-anthropic: ${reason}`,
      requestId: this.requestId(recorded),
    });
  }

  private async handleMessages(
    request: IncomingMessage,
    response: ServerResponse,
    rawBody: string,
  ): Promise<void> {
    const json = parseJson(rawBody);
    const parsed: ParsedMessagesBody = json.ok
      ? parseMessagesBody(json.value)
      : { ok: false, message: 'body is not JSON' };
    if (!parsed.ok) {
      const reason = `invalid /v1/messages body: ${parsed.message}: answered 400`;
      const recorded = this.record(request, rawBody, 'unexpected', reason);
      writeApiError(response, 400, {
        type: 'invalid_request_error',
        message: `fake-anthropic: ${reason}`,
        requestId: this.requestId(recorded),
      });
      return;
    }
    const body = parsed.body;
    const headers = flattenHeaders(request);
    const classify = this.options.classify ?? classifyMessagesRequest;
    const classification = classify(body, headers);

    let recorded: RecordedRequest;
    let step: ScriptStep | undefined;
    let latencyMs = 0;
    if (classification.kind === 'auxiliary') {
      recorded = this.record(request, rawBody, 'auxiliary', classification.reason, body);
      step = this.options.auxiliaryStep ?? reply('ok');
    } else {
      step = this.queue.take();
      this.agentLoopSeen += 1;
      if (step === undefined) {
        const reason = `script exhausted (request #${this.agentLoopSeen})`;
        recorded = this.record(request, rawBody, 'unexpected', reason, body);
        // x-should-retry: false makes the CLI give up at once even with retries left.
        writeApiError(
          response,
          500,
          { type: 'api_error', message: `fake-anthropic: ${reason}`, requestId: this.requestId(recorded) },
          { 'x-should-retry': 'false' },
        );
        return;
      }
      recorded = this.record(request, rawBody, 'agent-loop', classification.reason, body);
      latencyMs = this.options.latencyMs ?? 0;
    }

    let resolved: ResolvedStep;
    try {
      resolved = await resolveStep<RecordedRequest, ResolvedStep>(step, recorded);
    } catch (error) {
      const reason = `respond() step failed: ${errorMessage(error)}`;
      // The request stays in its list; it is also unexpected so assertComplete() reports it.
      this.log.alsoUnexpected(recorded, reason);
      writeApiError(
        response,
        500,
        { type: 'api_error', message: `fake-anthropic: ${reason}`, requestId: this.requestId(recorded) },
        { 'x-should-retry': 'false' },
      );
      return;
    }
    await answerStep(response, resolved, {
      sequence: recorded.sequence,
      requestModel: body.model,
      requestBodyLength: rawBody.length,
      stream: body.stream === true,
      requestId: this.requestId(recorded),
      latencyMs,
      signal: this.closing.signal,
    });
  }
}
