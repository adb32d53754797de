import { z } from 'zod';
import type { ActionRecord, Citations, HoldRecord, SessionRecord } from '../model/records.js';

/** The event of a hold waiting for an operator. */
export const HOLD_CREATED_EVENT = 'hold.created';

/** What the server tells the notifier when a write is held. */
export interface HoldCreatedEvent {
  session: SessionRecord;
  action: ActionRecord;
  hold: HoldRecord;
  /** The hold verdict's citations, when known (its rule ids are sent). */
  citations?: Citations;
}

/**
 * The JSON body of a `hold.created` webhook. `action.recordId` and `action.summary` are written by
 * the agent (its write's context builder): show them as such, never as Novarch's own words.
 */
export const HoldWebhookPayloadSchema = z.object({
  event: z.literal(HOLD_CREATED_EVENT),
  /**
   * The delivery's id, as in the `Novarch-Delivery` header but inside the signed body: dedupe on
   * this one (a header is not signed, so a replayed body under a new id would pass as new).
   */
  deliveryId: z.string().optional(),
  tenant: z.string(),
  team: z.string(),
  agent: z.string(),
  sessionId: z.string(),
  hold: z.object({
    id: z.string(),
    createdAt: z.string(),
    deadline: z.string(),
    /** The hold in the console: `${consoleUrl}/holds/${id}`. */
    url: z.string(),
  }),
  action: z.object({
    id: z.string(),
    type: z.string(),
    tool: z.string(),
    recordId: z.string(),
    summary: z.string(),
    amount: z.number().optional(),
  }),
  ruleIds: z.array(z.string()),
});

/** A parsed `hold.created` webhook body. */
export type HoldWebhookPayload = z.output<typeof HoldWebhookPayloadSchema>;

/** The body of the `hold.created` webhook of `event`, linking to the hold under `consoleUrl`. */
export function buildHoldWebhookPayload(event: HoldCreatedEvent, consoleUrl: string): HoldWebhookPayload {
  const { session, action, hold } = event;
  const base = consoleUrl.replace(/\/+$/, '');
  return {
    event: HOLD_CREATED_EVENT,
    tenant: session.tenantId,
    team: session.teamId,
    agent: session.agentId,
    sessionId: session.id,
    hold: {
      id: hold.id,
      createdAt: hold.createdAt,
      deadline: hold.deadline,
      url: `${base}/holds/${encodeURIComponent(hold.id)}`,
    },
    action: {
      id: action.id,
      type: action.actionType,
      tool: action.toolName,
      recordId: action.context.recordId,
      summary: action.context.summary,
      ...(action.context.amount === undefined ? {} : { amount: action.context.amount }),
    },
    ruleIds: event.citations?.ruleIds ?? [],
  };
}
