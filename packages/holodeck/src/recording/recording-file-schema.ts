import { z } from 'zod';
import type { JsonValue } from './stable-json.js';

/** The `format` field of every recording file. */
export const RECORDING_FORMAT = 'holodeck-recording';
/** Version of the file layout below; a file of another version is refused with a message. */
export const RECORDING_FORMAT_VERSION = 1;

const json: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(json), z.record(z.string(), json)]),
);

/** Who made a request: the agent's loop, a judge metric, the embeddings of a retrieval tool. */
export const exchangeSourceSchema = z.enum(['agent', 'judge', 'embeddings']);
export type ExchangeSource = z.infer<typeof exchangeSourceSchema>;

/** A request in canonical form: what matching compares (docs/recording-format.md). */
export const canonicalRequestSchema = z.strictObject({
  method: z.string(),
  /** Path and query of the request (credentials in the query removed), without the host. */
  path: z.string(),
  /** The normalised JSON body; `system` and `tools` may be `sha256:…` references into `shared`. */
  body: json,
});
export type CanonicalRequest = z.infer<typeof canonicalRequestSchema>;

/** A response as recorded: a JSON body, a text body, or a stream of server-sent events in order. */
export const recordedResponseSchema = z.strictObject({
  status: z.number().int().min(100).max(599),
  headers: z.record(z.string(), z.string()),
  body: json.optional(),
  text: z.string().optional(),
  events: z.array(z.strictObject({ event: z.string().optional(), data: json })).optional(),
});
export type RecordedResponse = z.infer<typeof recordedResponseSchema>;

export const recordedExchangeSchema = z.strictObject({
  attempt: z.number().int().min(1),
  turn: z.number().int().min(1),
  source: exchangeSourceSchema,
  request: canonicalRequestSchema,
  response: recordedResponseSchema,
});
export type RecordedExchange = z.infer<typeof recordedExchangeSchema>;

/** A tool call and its result, recorded beside the model traffic. */
export const recordedToolCallSchema = z.strictObject({
  attempt: z.number().int().min(1),
  turn: z.number().int().min(1),
  tool: z.string(),
  arguments: json,
  result: json,
  is_error: z.boolean(),
});
export type RecordedToolCall = z.infer<typeof recordedToolCallSchema>;

export const recordedAgentSchema = z.strictObject({
  name: z.string(),
  provider: z.string(),
  model: z.string(),
});
export type RecordedAgent = z.infer<typeof recordedAgentSchema>;

/** One recording file: every exchange of one test case (all its attempts and turns). */
export const recordingFileSchema = z.strictObject({
  format: z.literal(RECORDING_FORMAT),
  version: z.literal(RECORDING_FORMAT_VERSION),
  holodeck: z.string(),
  agent: recordedAgentSchema,
  case: z.string(),
  exchanges: z.array(recordedExchangeSchema),
  tool_calls: z.array(recordedToolCallSchema),
  /** Values stored once by hash (system prompts, tool lists), referenced from request bodies. */
  shared: z.record(z.string().regex(/^sha256:[0-9a-f]{64}$/), json),
});
export type RecordingFile = z.infer<typeof recordingFileSchema>;
