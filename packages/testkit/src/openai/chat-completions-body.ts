import { z } from 'zod';
import { chatBodyProblems } from './check-chat-messages.js';
import { formatIssues } from './format-issues.js';

/**
 * The parts of a Chat Completions request body the fake server relies on. Objects are loose:
 * unknown fields are kept, so tests can still look at everything a client sent.
 */
const contentPartSchema = z.looseObject({ type: z.string() });

/** A message's content: a string, or content parts (`{type: 'text', text}`, `image_url`, ...). */
const contentSchema = z.union([z.string(), z.array(contentPartSchema)]);

/** OpenAI rejects function and schema names outside this pattern (Ollama and vLLM are laxer). */
const OPENAI_NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;
const nameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(OPENAI_NAME_PATTERN, 'must match ^[a-zA-Z0-9_-]+$ (OpenAI rejects other names)');

const toolCallParamSchema = z.looseObject({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.looseObject({ name: z.string().min(1), arguments: z.string() }),
});

const messageParamSchema = z.discriminatedUnion('role', [
  z.looseObject({ role: z.literal('system'), content: contentSchema }),
  // Reasoning models (o-series, gpt-5) get the system prompt as a `developer` message.
  z.looseObject({ role: z.literal('developer'), content: contentSchema }),
  z.looseObject({ role: z.literal('user'), content: contentSchema }),
  z.looseObject({
    role: z.literal('assistant'),
    // null when the message only carries tool calls.
    content: contentSchema.nullish(),
    tool_calls: z.array(toolCallParamSchema).optional(),
  }),
  z.looseObject({ role: z.literal('tool'), tool_call_id: z.string().min(1), content: contentSchema }),
]);

const toolParamSchema = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: nameSchema,
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});

const responseFormatSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    json_schema: z.looseObject({
      name: nameSchema,
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullish(),
    }),
  }),
]);

const toolChoiceSchema = z.union([
  z.enum(['none', 'auto', 'required']),
  z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string() }) }),
]);

export const chatCompletionsBodySchema = z.looseObject({
  // Optional here: Azure's deployment route takes the model from the URL. Required elsewhere (see below).
  model: z.string().min(1).optional(),
  messages: z.array(messageParamSchema).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  tools: z.array(toolParamSchema).optional(),
  tool_choice: toolChoiceSchema.optional(),
  parallel_tool_calls: z.boolean().optional(),
  response_format: responseFormatSchema.optional(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  max_tokens: z.int().positive().nullish(),
  max_completion_tokens: z.int().positive().nullish(),
  seed: z.int().nullish(),
  stop: z.union([z.string(), z.array(z.string())]).nullish(),
  // The fake answers one choice; asking for more is a test bug worth hearing about.
  n: z.literal(1, 'n > 1 is not supported by the fake server').nullish(),
});

/** A validated Chat Completions request body. */
export type ChatCompletionsBody = z.infer<typeof chatCompletionsBodySchema>;
/** One message of `ChatCompletionsBody.messages`, discriminated by `role`. */
export type ChatMessageParam = z.infer<typeof messageParamSchema>;
/** One tool call of an assistant message in the request history. */
export type ChatToolCallParam = z.infer<typeof toolCallParamSchema>;
/** One tool offered to the model. */
export type ChatToolParam = z.infer<typeof toolParamSchema>;
/** The `response_format` of a request. */
export type ChatResponseFormat = z.infer<typeof responseFormatSchema>;

export const textPartSchema = z.looseObject({ type: z.literal('text'), text: z.string() });

/** Validation result: the body, or a message saying what is wrong (as an OpenAI 400 would). */
export type ParsedChatCompletionsBody =
  | { ok: true; body: ChatCompletionsBody }
  | { ok: false; message: string };

/**
 * Validates a parsed JSON value as a Chat Completions request body: its shape (zod), then the
 * rules the real API enforces across messages (tool results pair with earlier tool calls, ...).
 */
export function parseChatCompletionsBody(
  value: unknown,
  options: { modelRequired: boolean },
): ParsedChatCompletionsBody {
  const result = chatCompletionsBodySchema.safeParse(value);
  if (!result.success) return { ok: false, message: formatIssues(result.error.issues) };
  const problems = chatBodyProblems(result.data);
  if (options.modelRequired && result.data.model === undefined) problems.unshift('model: required');
  if (problems.length > 0) return { ok: false, message: problems.join('; ') };
  return { ok: true, body: result.data };
}
