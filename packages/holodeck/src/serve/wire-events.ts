import { z } from 'zod';
import type { ExecutionResult, SessionEvent } from '../backends/contract/index.js';

/** The JSON of a pending approval, as every protocol shows it. */
export const PendingApprovalSchema = z.object({
  callId: z.string(),
  toolName: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  reason: z.string(),
});

/** The JSON of a pending Novarch hold (decided by an operator, never by the caller). */
export const PendingHoldSchema = z.object({
  holdId: z.string(),
  callId: z.string().optional(),
  toolName: z.string(),
  actionType: z.string(),
  ruleIds: z.array(z.string()),
  rationale: z.string(),
  deadline: z.string(),
});

/** The usage of a turn as the REST API reports it. */
export const TurnUsageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
  /** Null when the backend cannot know it (the AI SDK backend). */
  costUsd: z.number().nullable(),
});

/** One event of a REST turn stream (`text/event-stream`, the event named by its type). */
export const WireEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text-delta'), text: z.string() }),
  z.object({ type: z.literal('thinking-delta'), text: z.string() }),
  z.object({
    type: z.literal('tool-call'),
    callId: z.string(),
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()),
  }),
  z.object({
    type: z.literal('tool-result'),
    callId: z.string(),
    name: z.string(),
    result: z.string(),
    isError: z.boolean(),
  }),
  z.object({ type: z.literal('approval-request'), approval: PendingApprovalSchema }),
  z.object({ type: z.literal('hold-pending'), hold: PendingHoldSchema }),
  z.object({
    type: z.literal('hold-resolved'),
    holdId: z.string(),
    status: z.string(),
    decidedBy: z.string().optional(),
    rationale: z.string().optional(),
  }),
  z.object({ type: z.literal('error'), message: z.string() }),
  z.object({
    type: z.literal('finish'),
    response: z.string(),
    isError: z.boolean(),
    errorReason: z.string().optional(),
    usage: TurnUsageSchema,
  }),
]);
/** One event of a REST turn stream. */
export type WireEvent = z.infer<typeof WireEventSchema>;

/** The usage of a result. */
export function usageOf(result: ExecutionResult): z.infer<typeof TurnUsageSchema> {
  return {
    promptTokens: result.token_usage.prompt_tokens,
    completionTokens: result.token_usage.completion_tokens,
    totalTokens: result.token_usage.total_tokens,
    costUsd: result.cost_usd,
  };
}

/** A session event as JSON (undefined for `session-start`, which callers do not need). */
export function toWireEvent(event: SessionEvent): WireEvent | undefined {
  switch (event.type) {
    case 'session-start':
    // A served session declines MCP elicitation (docs/serve.md): nothing to answer.
    case 'elicitation-request':
    case 'elicitation-resolved':
      return undefined;
    case 'text-delta':
    case 'thinking-delta':
      return { type: event.type, text: event.text };
    case 'tool-call':
      return { type: 'tool-call', callId: event.callId, name: event.name, arguments: event.arguments };
    case 'tool-result':
      return {
        type: 'tool-result',
        callId: event.callId,
        name: event.name,
        result: event.result,
        isError: event.isError,
      };
    case 'approval-request':
      return {
        type: 'approval-request',
        approval: {
          callId: event.request.callId,
          toolName: event.request.toolName,
          arguments: event.request.arguments,
          reason: event.request.reason,
        },
      };
    case 'hold-pending':
      return {
        type: 'hold-pending',
        hold: {
          holdId: event.hold.holdId,
          ...(event.hold.callId === undefined ? {} : { callId: event.hold.callId }),
          toolName: event.hold.toolName,
          actionType: event.hold.actionType,
          ruleIds: event.hold.ruleIds,
          rationale: event.hold.rationale,
          deadline: event.hold.deadline,
        },
      };
    case 'hold-resolved':
      return {
        type: 'hold-resolved',
        holdId: event.hold.holdId,
        status: event.hold.status,
        ...(event.hold.decidedBy === undefined ? {} : { decidedBy: event.hold.decidedBy }),
        ...(event.hold.rationale === undefined ? {} : { rationale: event.hold.rationale }),
      };
    case 'error':
      return { type: 'error', message: event.message };
    case 'finish':
      return {
        type: 'finish',
        response: event.result.response,
        isError: event.result.is_error,
        ...(event.result.error_reason ? { errorReason: event.result.error_reason } : {}),
        usage: usageOf(event.result),
      };
  }
}
