import type { ServerResponse } from 'node:http';
import type { ResolvedStep } from '../script/script-step.js';
import { buildMessage, type MessageContext } from './build-message.js';
import { anthropicErrorBody } from './error-body.js';
import { sleep } from './sleep.js';
import { messageEvents } from './sse-events.js';
import { SseWriter } from './sse-writer.js';
import { writeJson } from './write-json.js';

/** Everything an answer depends on besides its step. */
export interface AnswerContext extends MessageContext {
  /** The request asked for `stream: true`. */
  stream: boolean;
  /** Sent as the `request-id` header and in error bodies. */
  requestId: string;
  /** Server-wide delay before every answer. */
  latencyMs: number;
  /** Aborted when the server closes. */
  signal: AbortSignal;
}

/** Writes an Anthropic error response (`{type:"error", error:{type, message}, request_id}`). */
export function writeApiError(
  response: ServerResponse,
  status: number,
  error: { type: string; message: string; requestId: string },
  headers: Record<string, string> = {},
): void {
  writeJson(response, status, anthropicErrorBody(error.type, error.message, error.requestId), {
    'request-id': error.requestId,
    ...headers,
  });
}

/** Answers one request with a resolved step: an error, a JSON message, or an SSE stream. */
export async function answerStep(
  response: ServerResponse,
  step: ResolvedStep,
  context: AnswerContext,
): Promise<void> {
  await sleep(context.latencyMs + (step.delayMs ?? 0), context.signal);
  if (response.destroyed || context.signal.aborted) return;
  const requestIdHeader = { 'request-id': context.requestId };

  if (step.type === 'api-error') {
    const headers: Record<string, string> = {};
    if (step.retryAfter !== undefined) headers['retry-after'] = String(step.retryAfter);
    if (step.shouldRetry !== undefined) headers['x-should-retry'] = String(step.shouldRetry);
    const error = { type: step.errorType, message: step.message, requestId: context.requestId };
    writeApiError(response, step.status, error, headers);
    return;
  }

  const message = buildMessage(step, context);
  if (!context.stream) {
    writeJson(response, 200, message, requestIdHeader);
    return;
  }
  const writer = new SseWriter(response, { chunkDelayMs: step.chunkDelayMs ?? 0, signal: context.signal });
  writer.open(requestIdHeader);
  await writer.write(messageEvents(message));
  writer.end();
}
