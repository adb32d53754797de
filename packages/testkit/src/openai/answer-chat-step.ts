import type { ServerResponse } from 'node:http';
import { sleep } from '../wire/sleep.js';
import { SseWriter } from '../wire/sse-writer.js';
import { writeJson } from '../wire/write-json.js';
import { buildChatChunks, chatChunkFrames } from './build-chat-chunks.js';
import { buildChatCompletion, type CompletionContext } from './build-chat-completion.js';
import { openaiErrorBody, writeOpenAIError } from './openai-error-body.js';
import type { OpenAIErrorStep, ResolvedChatStep } from './openai-script-step.js';

/** Everything an answer depends on besides its step. */
export interface ChatAnswerContext extends CompletionContext {
  /** The request asked for `stream: true`. */
  stream: boolean;
  /** The request set `stream_options.include_usage`. */
  includeUsage: boolean;
  /** Sent as the `x-request-id` header. */
  requestId: string;
  /** Server-wide delay before every answer. */
  latencyMs: number;
  /** Aborted when the server closes. */
  signal: AbortSignal;
}

/** Writes a scripted error: status, OpenAI error body, `retry-after`/`retry-after-ms` and extra headers. */
export function writeErrorStep(response: ServerResponse, step: OpenAIErrorStep, requestId: string): void {
  const headers: Record<string, string> = { ...step.headers };
  if (step.retryAfter !== undefined) headers['retry-after'] = String(step.retryAfter);
  if (step.retryAfterMs !== undefined) headers['retry-after-ms'] = String(step.retryAfterMs);
  writeOpenAIError(response, step.status, openaiErrorBody(step.error), requestId, headers);
}

/** Answers one chat completions request with a resolved step: an error, a JSON completion, or an SSE stream. */
export async function answerChatStep(
  response: ServerResponse,
  step: ResolvedChatStep,
  context: ChatAnswerContext,
): Promise<void> {
  await sleep(context.latencyMs + (step.delayMs ?? 0), context.signal);
  if (response.destroyed || context.signal.aborted) return;
  if (step.type === 'api-error') {
    writeErrorStep(response, step, context.requestId);
    return;
  }
  const completion = buildChatCompletion(step, context);
  const requestIdHeader = { 'x-request-id': context.requestId };
  if (!context.stream) {
    writeJson(response, 200, completion, requestIdHeader);
    return;
  }
  const writer = new SseWriter(response, { chunkDelayMs: step.chunkDelayMs ?? 0, signal: context.signal });
  writer.open(requestIdHeader);
  await writer.writeFrames(
    chatChunkFrames(buildChatChunks(completion, { includeUsage: context.includeUsage })),
  );
  writer.end();
}
