import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { classifyMessagesRequest, type RequestClassification } from './request/classify-request.js';
import { type MessagesBody, parseMessagesBody } from './request/messages-body.js';
import type { RecordedRequest, RequestKind } from './request/recorded-request.js';
import { completenessReport } from './script/completeness-report.js';
import { resolveStep } from './script/resolve-step.js';
import { ScriptQueue } from './script/script-queue.js';
import type { ResolvedStep, ScriptStep } from './script/script-step.js';
import { reply } from './script/step-builders.js';
import { answerStep, writeJson } from './wire/answer-step.js';
import { anthropicErrorBody } from './wire/error-body.js';
import { estimateTokens } from './wire/estimate-tokens.js';

/** Options of `startFakeAnthropic()`. */
export interface FakeAnthropicOptions {
  /** Steps answering the agent-loop requests, in order. More can be added with `script()`. */
  steps?: ScriptStep[];
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Delay before every agent-loop answer, in milliseconds (benchmarks). */
  latencyMs?: number;
  /** When the script is exhausted, answer with the last step again instead of failing (bin mode). */
  repeatLast?: boolean;
  /** Answer to auxiliary `/v1/messages` requests (probes, forks, helpers). Default: `reply('ok')`. */
  auxiliaryStep?: ScriptStep;
  /** Replaces the default agent-loop / auxiliary rule (`classifyMessagesRequest`). */
  classify?: (body: MessagesBody, headers: Readonly<Record<string, string>>) => RequestClassification;
  /** Called for every request once it is recorded (the bin's `--verbose` log). */
  onRequest?: (request: RecordedRequest) => void;
}

/** A running fake Anthropic Messages API. */
export interface FakeAnthropicServer {
  /** `http://127.0.0.1:PORT`, to use as `ANTHROPIC_BASE_URL`. */
  readonly url: string;
  readonly port: number;
  /** Agent-loop `/v1/messages` requests that consumed a step, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Requests outside the scripted agent loop: probes, forks, helpers, count_tokens, /api/hello. */
  readonly auxiliaryRequests: readonly RecordedRequest[];
  /** Requests the server could not answer as scripted: unknown paths, invalid bodies, exhausted script. */
  readonly unexpected: readonly RecordedRequest[];
  /** Every request, in arrival order. */
  readonly allRequests: readonly RecordedRequest[];
  /** Steps not used yet. */
  readonly remainingSteps: readonly ScriptStep[];
  /** Appends steps to the script. */
  script(...steps: ScriptStep[]): void;
  /** Throws a descriptive Error if steps remain unused or an unexpected request arrived. */
  assertComplete(): void;
  /** Clears the script and all recordings (one server per test file, reset between tests). */
  reset(): void;
  close(): Promise<void>;
}

const MESSAGES_PATH = '/v1/messages';
const COUNT_TOKENS_PATH = '/v1/messages/count_tokens';
// The CLI's connectivity check (HEAD <base>/api/hello), sent unless
// CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1.
const HELLO_PATH = '/api/hello';

function flattenHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

interface Recordings {
  agentLoop: RecordedRequest[];
  auxiliary: RecordedRequest[];
  unexpected: RecordedRequest[];
  all: RecordedRequest[];
}

function emptyRecordings(): Recordings {
  return { agentLoop: [], auxiliary: [], unexpected: [], all: [] };
}

class FakeAnthropic implements FakeAnthropicServer {
  readonly url: string;
  readonly port: number;
  private readonly queue: ScriptQueue;
  private recorded: Recordings = emptyRecordings();
  private readonly closing = new AbortController();

  constructor(
    private readonly server: Server,
    private readonly options: FakeAnthropicOptions,
  ) {
    const address = server.address();
    if (address === null || typeof address === 'string')
      throw new Error('fake-anthropic: server is not listening on TCP');
    this.port = address.port;
    this.url = `http://127.0.0.1:${address.port}`;
    this.queue = new ScriptQueue(options.repeatLast ?? false);
    this.queue.append(options.steps ?? []);
  }

  get requests(): readonly RecordedRequest[] {
    return this.recorded.agentLoop;
  }
  get auxiliaryRequests(): readonly RecordedRequest[] {
    return this.recorded.auxiliary;
  }
  get unexpected(): readonly RecordedRequest[] {
    return this.recorded.unexpected;
  }
  get allRequests(): readonly RecordedRequest[] {
    return this.recorded.all;
  }
  get remainingSteps(): readonly ScriptStep[] {
    return this.queue.remaining();
  }

  script(...steps: ScriptStep[]): void {
    this.queue.append(steps);
  }

  assertComplete(): void {
    const report = completenessReport(
      this.queue.remaining(),
      this.recorded.unexpected,
      this.recorded.agentLoop.length,
    );
    if (report !== undefined) throw new Error(report);
  }

  reset(): void {
    this.queue.clear();
    this.recorded = emptyRecordings();
  }

  close(): Promise<void> {
    this.closing.abort();
    return new Promise((resolve, reject) => {
      this.server.close((error) => (error ? reject(error) : resolve()));
      // The CLI keeps connections alive; without this, close() waits for them to time out.
      this.server.closeAllConnections();
    });
  }

  /** Entry point for every HTTP request. Never throws: failures become 500 answers. */
  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      await this.route(request, response);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      writeJson(
        response,
        500,
        anthropicErrorBody('api_error', `fake-anthropic: ${message}`, 'req_fake_error'),
      );
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
    const recorded: RecordedRequest = {
      sequence: this.recorded.all.length + 1,
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
    };
    this.recorded.all.push(recorded);
    if (kind === 'agent-loop') this.recorded.agentLoop.push(recorded);
    else if (kind === 'auxiliary') this.recorded.auxiliary.push(recorded);
    else this.recorded.unexpected.push(recorded);
    this.options.onRequest?.(recorded);
    return recorded;
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
    writeJson(
      response,
      404,
      anthropicErrorBody('not_found_error', `fake-anthropic: ${reason}`, this.requestId(recorded)),
      { 'request-id': this.requestId(recorded) },
    );
  }

  private async handleMessages(
    request: IncomingMessage,
    response: ServerResponse,
    rawBody: string,
  ): Promise<void> {
    const json = parseJson(rawBody);
    const parsed = json.ok
      ? parseMessagesBody(json.value)
      : { ok: false as const, message: 'body is not JSON' };
    if (!parsed.ok) {
      const reason = `invalid /v1/messages body: ${parsed.message}: answered 400`;
      const recorded = this.record(request, rawBody, 'unexpected', reason);
      const requestId = this.requestId(recorded);
      writeJson(
        response,
        400,
        anthropicErrorBody('invalid_request_error', `fake-anthropic: ${reason}`, requestId),
        { 'request-id': requestId },
      );
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
      const number = this.recorded.agentLoop.length + 1;
      if (step === undefined) {
        const reason = `script exhausted (request #${number})`;
        recorded = this.record(request, rawBody, 'unexpected', reason, body);
        const requestId = this.requestId(recorded);
        // x-should-retry: false so the CLI gives up at once even with retries left.
        writeJson(response, 500, anthropicErrorBody('api_error', `fake-anthropic: ${reason}`, requestId), {
          'request-id': requestId,
          'x-should-retry': 'false',
        });
        return;
      }
      recorded = this.record(request, rawBody, 'agent-loop', classification.reason, body);
      latencyMs = this.options.latencyMs ?? 0;
    }

    let resolved: ResolvedStep;
    try {
      resolved = await resolveStep(step, recorded);
    } catch (error) {
      const reason = `respond() step failed: ${error instanceof Error ? error.message : String(error)}`;
      // The request stays in its list; it is also unexpected so assertComplete() reports it.
      this.recorded.unexpected.push({ ...recorded, kind: 'unexpected', reason });
      const requestId = this.requestId(recorded);
      writeJson(response, 500, anthropicErrorBody('api_error', `fake-anthropic: ${reason}`, requestId), {
        'request-id': requestId,
        'x-should-retry': 'false',
      });
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

/** Starts a fake Anthropic Messages API on 127.0.0.1 and resolves once it listens. */
export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropicServer> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const fake = new FakeAnthropic(server, options);
  server.on('request', (request, response) => {
    void fake.handle(request, response);
  });
  return fake;
}
