import { z } from 'zod';

/** A tool call the model made, as kept in a saved session. */
export const SessionToolCallSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
});

/** A tool's answer to one call, paired with it by `callId`. */
export const SessionToolResultSchema = z.strictObject({
  callId: z.string().min(1),
  name: z.string().min(1),
  output: z.string(),
  isError: z.boolean(),
});

/**
 * One message of a conversation in HoloDeck's own provider-neutral shape (not the AI SDK's, whose
 * message types change between major versions): what a saved session stores.
 */
export const SessionMessageSchema = z.discriminatedUnion('role', [
  z.strictObject({ role: z.literal('user'), content: z.string() }),
  z.strictObject({
    role: z.literal('assistant'),
    content: z.string(),
    toolCalls: z.array(SessionToolCallSchema).optional(),
  }),
  z.strictObject({ role: z.literal('tool'), results: z.array(SessionToolResultSchema).min(1) }),
]);

/** One message of a saved conversation. */
export type SessionMessage = z.infer<typeof SessionMessageSchema>;
