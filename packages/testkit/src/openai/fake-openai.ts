import type { IncomingMessage, ServerResponse } from 'node:http';
import { RequestLog } from '../request/request-log.js';
import { completenessReport } from '../script/completeness-report.js';
import { resolveStep } from '../script/resolve-step.js';
import { ScriptQueue } from '../script/script-queue.js';
import { errorMessage } from '../support.js';
import { closeLoopbackServer, type LoopbackServer } from '../wire/loopback-server.js';
import { answerChatStep } from './answer-chat-step.js';
import { answerEmbeddings } from './answer-embeddings.js';
import { type ChatCompletionsBody, parseChatCompletionsBody } from './chat-completions-body.js';
import { checkOpenAIAuth } from './check-openai-auth.js';
import { type EmbeddingsBody, embeddingsInputList, parseEmbeddingsBody } from './embeddings-body.js';
import { fakeEmbedding } from './fake-embedding.js';
import type { FakeOpenAIOptions, FakeOpenAIServer } from './fake-openai-server.js';
import type { OpenAIEndpoint } from './match-openai-route.js';
import { fakeServerError, writeOpenAIError } from './openai-error-body.js';
import type { OpenAIRecordedRequest, OpenAIRequestKind } from './openai-recorded-request.js';
import type { ChatStep, EmbeddingsStep, ResolvedChatStep } from './openai-script-step.js';
import { type RequestFacts, readRequestFacts } from './read-request-facts.js';

/** text-embedding-3-small's default dimension. */
const DEFAULT_EMBEDDING_DIMENSIONS = 1536;

// Errors of the fake itself (script exhausted, respond() threw) answer 400, not 5xx: the AI SDK
// retries 5xx twice with 2 s + 4 s of backoff, and each retry would take the next step.
const NO_RETRY = { 'x-should-retry': 'false' };

/** The server behind `startFakeOpenAI()`: routes, records and answers requests. */
export class FakeOpenAI implements FakeOpenAIServer {
  readonly url: string;
  readonly baseUrl: string;
  readonly azureBaseUrl: string;
  readonly azureDeploymentsBaseUrl: string;
  readonly port: number;
  private readonly chatQueue = new ScriptQueue<ChatStep>();
  private readonly embeddingsQueue = new ScriptQueue<EmbeddingsStep>();
  private readonly log: RequestLog<Exclude<OpenAIRequestKind, 'unexpected'>, OpenAIRecordedRequest>;
  /** Chat requests with a valid body, including those that found the script exhausted. */
  private chatSeen = 0;
  /** Chat steps taken from the script (not counting fallback answers). */
  private stepsTaken = 0;
  private readonly closing = new AbortController();

  constructor(
    private readonly listening: LoopbackServer,
    private readonly options: FakeOpenAIOptions,
  ) {
    this.port = listening.port;
    this.url = listening.url;
    this.log = new RequestLog(options.onRequest);
    this.baseUrl = `${this.url}/v1`;
    this.azureBaseUrl = `${this.url}/openai/v1`;
    this.azureDeploymentsBaseUrl = `${this.url}/openai`;
    this.chatQueue.append(options.steps ?? []);
    this.embeddingsQueue.append(options.embeddingsSteps ?? []);
  }

  get requests(): readonly OpenAIRecordedRequest[] {
    return this.log.of('chat');
  }
  get embeddingsRequests(): readonly OpenAIRecordedRequest[] {
    return this.log.of('embeddings');
  }
  get unexpected(): readonly OpenAIRecordedRequest[] {
    return this.log.of('unexpected');
  }
  get allRequests(): readonly OpenAIRecordedRequest[] {
    return this.log.all;
  }
  get remainingSteps(): readonly ChatStep[] {
    return this.chatQueue.remaining();
  }
  get remainingEmbeddingsSteps(): readonly EmbeddingsStep[] {
    return this.embeddingsQueue.remaining();
  }

  script(...steps: ChatStep[]): void {
    this.chatQueue.append(steps);
  }

  scriptEmbeddings(...steps: EmbeddingsStep[]): void {
    this.embeddingsQueue.append(steps);
  }

  assertComplete(): void {
    const report = completenessReport(
      'fake-openai',
      [
        {
          noun: 'chat completion',
          remaining: this.chatQueue.remaining(),
          answered: this.requests.length,
        },
        {
          noun: 'embeddings',
          remaining: this.embeddingsQueue.remaining(),
          answered: this.embeddingsRequests.length,
          quietWhenIdle: true,
        },
      ],
      this.unexpected,
    );
    if (report !== undefined) throw new Error(report);
  }

  reset(): void {
    this.chatQueue.clear();
    this.embeddingsQueue.clear();
    this.log.clear();
    this.chatSeen = 0;
    this.stepsTaken = 0;
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
      // A stream already under way cannot turn into an error answer: cut it off instead.
      if (response.headersSent) response.destroy();
      else writeOpenAIError(response, 500, fakeServerError(message), 'req_fake_error');
    }
  }

  private record(
    facts: RequestFacts,
    kind: OpenAIRequestKind,
    reason: string,
    bodies: Pick<OpenAIRecordedRequest, 'chatBody' | 'embeddingsBody'> = {
      chatBody: undefined,
      embeddingsBody: undefined,
    },
  ): OpenAIRecordedRequest {
    return this.log.add((sequence) => ({
      sequence,
      ...facts,
      ...bodies,
      receivedAt: new Date(),
      kind,
      reason,
    }));
  }

  /** Records the request as unexpected and answers with the fake's own error. */
  private reject(
    response: ServerResponse,
    facts: RequestFacts,
    status: number,
    reason: string,
    headers: Record<string, string> = {},
  ): void {
    const recorded = this.record(facts, 'unexpected', reason);
    writeOpenAIError(response, status, fakeServerError(reason), requestId(recorded), headers);
  }

  private async route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const { facts, route } = await readRequestFacts(request);
    const { method, path } = facts;
    if (!route.matched) {
      const hint = route.hint === undefined ? '' : ` (${route.hint})`;
      this.reject(response, facts, 404, `no route for ${method} ${path}${hint}: answered 404`);
      return;
    }
    if (route.api === 'azure-deployment' && facts.apiVersion === undefined) {
      // Azure answers 404 "Resource not found" to a deployment URL without ?api-version.
      this.reject(response, facts, 404, 'Azure deployment URL without ?api-version=: answered 404');
      return;
    }
    const auth = checkOpenAIAuth(route.api, facts.headers, this.options.apiKey);
    if (!auth.ok) {
      const recorded = this.record(facts, 'unexpected', auth.reason);
      writeOpenAIError(response, 401, auth.body, requestId(recorded));
      return;
    }
    await this.answer(route.endpoint, response, facts);
  }

  private async answer(
    endpoint: OpenAIEndpoint,
    response: ServerResponse,
    facts: RequestFacts,
  ): Promise<void> {
    if (facts.body === undefined) {
      this.reject(response, facts, 400, `invalid ${endpoint} body: not JSON: answered 400`);
      return;
    }
    const modelRequired = facts.api !== 'azure-deployment';
    if (endpoint === 'embeddings') {
      const parsed = parseEmbeddingsBody(facts.body, { modelRequired });
      if (!parsed.ok) {
        this.reject(response, facts, 400, `invalid embeddings body: ${parsed.message}: answered 400`);
        return;
      }
      await this.answerEmbeddings(response, facts, parsed.body);
      return;
    }
    const parsed = parseChatCompletionsBody(facts.body, { modelRequired });
    if (!parsed.ok) {
      this.reject(response, facts, 400, `invalid chat-completions body: ${parsed.message}: answered 400`);
      return;
    }
    await this.answerChat(response, facts, parsed.body);
  }

  private async answerChat(
    response: ServerResponse,
    facts: RequestFacts,
    body: ChatCompletionsBody,
  ): Promise<void> {
    this.chatSeen += 1;
    const scripted = this.chatQueue.take();
    const step = scripted ?? this.options.fallback;
    if (step === undefined) {
      const reason = `script exhausted (chat completion request #${this.chatSeen}): answered 400`;
      this.reject(response, facts, 400, reason, NO_RETRY);
      return;
    }
    if (scripted !== undefined) this.stepsTaken += 1;
    const reason =
      scripted === undefined ? `fallback: ${step.label}` : `script step ${this.stepsTaken}: ${step.label}`;
    const recorded = this.record(facts, 'chat', reason, { chatBody: body, embeddingsBody: undefined });

    let resolved: ResolvedChatStep;
    try {
      resolved = await resolveStep<OpenAIRecordedRequest, ResolvedChatStep>(step, recorded);
    } catch (error) {
      const failure = `chatRespond() step failed: ${errorMessage(error)}`;
      // The request stays in `requests`; it is also unexpected so assertComplete() reports it.
      this.log.alsoUnexpected(recorded, failure);
      writeOpenAIError(response, 400, fakeServerError(failure), requestId(recorded), NO_RETRY);
      return;
    }
    await answerChatStep(response, resolved, {
      sequence: recorded.sequence,
      requestModel: body.model ?? facts.deployment ?? 'fake-model',
      requestBodyLength: facts.rawBody.length,
      stream: body.stream === true,
      includeUsage: body.stream_options?.include_usage === true,
      requestId: requestId(recorded),
      latencyMs: this.options.latencyMs ?? 0,
      signal: this.closing.signal,
    });
  }

  private async answerEmbeddings(
    response: ServerResponse,
    facts: RequestFacts,
    body: EmbeddingsBody,
  ): Promise<void> {
    const step = this.embeddingsQueue.take();
    const dimensions = body.dimensions ?? this.options.embeddingDimensions ?? DEFAULT_EMBEDDING_DIMENSIONS;
    const reason =
      step === undefined ? `hashed embeddings (${dimensions} dimensions)` : `embeddings step: ${step.label}`;
    const recorded = this.record(facts, 'embeddings', reason, { chatBody: undefined, embeddingsBody: body });
    await answerEmbeddings(response, step, {
      inputs: embeddingsInputList(body),
      dimensions,
      model: body.model ?? facts.deployment ?? 'fake-embedding-model',
      encoding: body.encoding_format ?? 'float',
      embed: this.options.embed ?? fakeEmbedding,
      requestId: requestId(recorded),
      signal: this.closing.signal,
    });
  }
}

function requestId(recorded: OpenAIRecordedRequest): string {
  return `req_fake_${recorded.sequence}`;
}
