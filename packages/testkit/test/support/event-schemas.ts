import { z } from 'zod';

/** Shapes of streamed events that tests read fields from. */
export const deltaEventSchema = z.object({
  type: z.literal('content_block_delta'),
  index: z.number(),
  delta: z.discriminatedUnion('type', [
    z.object({ type: z.literal('text_delta'), text: z.string() }),
    z.object({ type: z.literal('input_json_delta'), partial_json: z.string() }),
    z.object({ type: z.literal('thinking_delta'), thinking: z.string() }),
    z.object({ type: z.literal('signature_delta'), signature: z.string() }),
  ]),
});

export type DeltaEvent = z.infer<typeof deltaEventSchema>;

/** The delta events among `events` (anything with `type: 'content_block_delta'`), validated. */
export function deltaEvents(events: readonly { type: string }[] | readonly unknown[]): DeltaEvent[] {
  return events.flatMap((event) => {
    const parsed = deltaEventSchema.safeParse(event);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Joins the text of all text_delta events. */
export function joinedText(events: readonly unknown[]): string {
  return deltaEvents(events)
    .map((event) => (event.delta.type === 'text_delta' ? event.delta.text : ''))
    .join('');
}

/** Joins the partial_json of all input_json_delta events of block `index`. */
export function joinedJson(events: readonly unknown[], index: number): string {
  return deltaEvents(events)
    .filter((event) => event.index === index)
    .map((event) => (event.delta.type === 'input_json_delta' ? event.delta.partial_json : ''))
    .join('');
}
