import { z } from 'zod';

/**
 * The parts of a Messages API request body the fake server relies on. Objects are loose:
 * unknown fields are kept, so tests can still look at everything the CLI sent.
 */
const contentBlockSchema = z.looseObject({ type: z.string() });

const messageParamSchema = z.looseObject({
  // 'system' appears too: for models it does not know, CLI 2.1.332 sends its environment
  // context as a `system`-role message.
  role: z.string(),
  content: z.union([z.string(), z.array(contentBlockSchema)]),
});

const systemBlockSchema = z.looseObject({ type: z.string(), text: z.string().optional() });

const toolSchema = z.looseObject({ name: z.string() });

export const messagesBodySchema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().nonnegative(),
  messages: z.array(messageParamSchema),
  system: z.union([z.string(), z.array(systemBlockSchema)]).optional(),
  tools: z.array(toolSchema).optional(),
  stream: z.boolean().optional(),
  thinking: z.looseObject({ type: z.string() }).optional(),
});

/** A validated `/v1/messages` request body. */
export type MessagesBody = z.infer<typeof messagesBodySchema>;
/** One message of `MessagesBody.messages`. */
export type MessageParam = z.infer<typeof messageParamSchema>;
/** One content block of a message, narrowed only by `type`. */
export type ContentBlock = z.infer<typeof contentBlockSchema>;

export const textBlockSchema = z.looseObject({ type: z.literal('text'), text: z.string() });

export const toolResultBlockSchema = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(contentBlockSchema)]).optional(),
  is_error: z.boolean().optional(),
});

/** Validation result: the body, or a message saying what is wrong (Anthropic `invalid_request_error` style). */
export type ParsedMessagesBody = { ok: true; body: MessagesBody } | { ok: false; message: string };

/** Validates a parsed JSON value as a `/v1/messages` request body. */
export function parseMessagesBody(value: unknown): ParsedMessagesBody {
  const result = messagesBodySchema.safeParse(value);
  if (result.success) return { ok: true, body: result.data };
  const issues = result.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
  return { ok: false, message: issues.join('; ') };
}
