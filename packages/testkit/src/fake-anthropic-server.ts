import { FakeAnthropic } from './fake-anthropic.js';
import type { RequestClassification } from './request/classify-request.js';
import type { MessagesBody } from './request/messages-body.js';
import type { RecordedRequest } from './request/recorded-request.js';
import type { ScriptStep } from './script/script-step.js';
import { listenOnLoopback } from './wire/loopback-server.js';

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

/** Starts a fake Anthropic Messages API on 127.0.0.1 and resolves once it listens. */
export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropicServer> {
  const listening = await listenOnLoopback(options.port);
  const fake = new FakeAnthropic(listening, options);
  listening.server.on('request', (request, response) => {
    void fake.handle(request, response);
  });
  return fake;
}
