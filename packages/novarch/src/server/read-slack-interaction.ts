import { z } from 'zod';
import { whyNotFromSlack } from '../notify/slack-signature.js';

/** An interaction body larger than this is refused unread (Slack's are a few kB). */
const MAX_INTERACTION_BYTES = 64 * 1024;

/** The part of a `block_actions` payload Novarch reads. */
const InteractionSchema = z.looseObject({
  type: z.literal('block_actions'),
  user: z.looseObject({ id: z.string().min(1) }),
  response_url: z.url(),
  actions: z.array(z.looseObject({ action_id: z.string(), value: z.string().optional() })).min(1),
});

/** A `block_actions` interaction as Novarch reads it. */
export type SlackInteraction = z.output<typeof InteractionSchema>;

/** A plain-text answer. */
export const plainText = (status: number, body: string) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });

/**
 * The interaction Slack posted, or the answer refusing it: 413 past `MAX_INTERACTION_BYTES`, 401
 * unless signed with `signingSecret` within the replay window, 400 without a block_actions payload.
 */
export async function readSlackInteraction(
  request: Request,
  signingSecret: string,
): Promise<{ payload: SlackInteraction } | { refusal: Response }> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_INTERACTION_BYTES)
    return { refusal: plainText(413, `Refused: the body is larger than ${MAX_INTERACTION_BYTES} bytes.`) };
  const body = await request.text();
  if (body.length > MAX_INTERACTION_BYTES)
    return { refusal: plainText(413, `Refused: the body is larger than ${MAX_INTERACTION_BYTES} bytes.`) };
  const why = whyNotFromSlack(
    {
      body,
      timestamp: request.headers.get('x-slack-request-timestamp') ?? undefined,
      signature: request.headers.get('x-slack-signature') ?? undefined,
    },
    signingSecret,
  );
  if (why !== undefined) return { refusal: plainText(401, `Refused: ${why}.`) };
  try {
    return { payload: InteractionSchema.parse(JSON.parse(new URLSearchParams(body).get('payload') ?? '')) };
  } catch {
    return {
      refusal: plainText(
        400,
        'Refused: the body has no block_actions payload (payload=JSON, as Slack sends button clicks).',
      ),
    };
  }
}
