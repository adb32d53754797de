import { z } from 'zod';
import type { SessionEvent } from '../backends/contract/index.js';
import type { LiveTurn } from './live-turn.js';
import { readTurn, type TurnStop } from './read-turn.js';
import { ServeProblem } from './serve-problem.js';
import { defineServeRoute, type ServeRequest } from './serve-route.js';
import type { ServeServices } from './serve-services.js';
import type { ServedSession } from './session-registry.js';
import { sseResponse, wantsEventStream } from './sse-response.js';
import {
  PendingApprovalSchema,
  PendingHoldSchema,
  TurnUsageSchema,
  toWireEvent,
  usageOf,
  WireEventSchema,
} from './wire-events.js';

const SessionParams = z.strictObject({ sessionId: z.string().min(1) });
const ApprovalParams = z.strictObject({ sessionId: z.string().min(1), callId: z.string().min(1) });

const SessionSchema = z.object({
  id: z.string(),
  instance: z.string(),
  createdAt: z.string(),
});

/** The JSON answer of a turn (or of the part of it until it waits). */
export const TurnOutcomeSchema = z.object({
  sessionId: z.string(),
  /** `requires_action`: the turn waits for an approval (answer it) or a Novarch hold (continue). */
  status: z.enum(['completed', 'failed', 'requires_action']),
  response: z.string(),
  toolCalls: z.array(
    z.object({ callId: z.string(), name: z.string(), arguments: z.record(z.string(), z.unknown()) }),
  ),
  pendingApprovals: z.array(PendingApprovalSchema),
  pendingHolds: z.array(PendingHoldSchema),
  errorReason: z.string().optional(),
  usage: TurnUsageSchema.optional(),
});
type TurnOutcome = z.infer<typeof TurnOutcomeSchema>;

/** A user message; its length is checked against serve.max_message_chars by the route. */
const MessageBody = z.strictObject({ message: z.string().min(1, { error: 'must not be empty' }) });

const ApprovalBody = z.strictObject({
  decision: z.enum(['allow', 'deny']),
  /** allow: this call only (default), or every call of this tool in the session. */
  scope: z.enum(['once', 'session']).optional(),
  /** deny: the reason the model receives. */
  reason: z.string().min(1).optional(),
});

/** Throws 413 when a message is longer than serve.max_message_chars. */
export function checkMessageLength(message: string, services: ServeServices, path: string): void {
  if (message.length > services.maxMessageChars)
    throw new ServeProblem(
      413,
      `${path}: the message is ${message.length} characters long, longer than the ${services.maxMessageChars} this server accepts (serve.max_message_chars)`,
      { issues: [{ path, message: `longer than ${services.maxMessageChars} characters` }] },
    );
}

/**
 * Sends a turn's events as REST answers: an SSE stream of wire events, or one JSON object once
 * the turn finishes or waits. Used by the message, approval and continue routes alike.
 */
export function answerTurn(request: ServeRequest<unknown, unknown>, session: ServedSession, turn: LiveTurn) {
  const raw = request.context.req.raw;
  if (wantsEventStream(raw))
    return sseResponse(raw, async (send, signal) => {
      await readTurn(
        turn,
        (event) => {
          const wire = toWireEvent(event);
          if (wire) send(wire, wire.type);
        },
        signal,
        { log: request.log },
      );
    });
  return collectTurn(session, turn, raw.signal, request.log);
}

async function collectTurn(
  session: ServedSession,
  turn: LiveTurn,
  signal: AbortSignal,
  log: ServeRequest<unknown, unknown>['log'],
): Promise<TurnOutcome> {
  let text = '';
  const toolCalls: TurnOutcome['toolCalls'] = [];
  const stop: TurnStop = await readTurn(
    turn,
    (event: SessionEvent) => {
      if (event.type === 'text-delta') text += event.text;
      if (event.type === 'tool-call')
        toolCalls.push({ callId: event.callId, name: event.name, arguments: event.arguments });
    },
    signal,
    { log },
  );
  const result = turn.result;
  const waiting = stop === 'approval' || stop === 'hold';
  return {
    sessionId: session.id,
    status: waiting ? 'requires_action' : result && !result.is_error ? 'completed' : 'failed',
    response: waiting ? text : (result?.response ?? text),
    toolCalls,
    pendingApprovals: turn.pendingApprovals().map((approval) => ({
      callId: approval.callId,
      toolName: approval.toolName,
      arguments: approval.arguments,
      reason: approval.reason,
    })),
    pendingHolds: turn.pendingHolds().map((hold) => ({
      holdId: hold.holdId,
      ...(hold.callId === undefined ? {} : { callId: hold.callId }),
      toolName: hold.toolName,
      actionType: hold.actionType,
      ruleIds: hold.ruleIds,
      rationale: hold.rationale,
      deadline: hold.deadline,
    })),
    ...(result?.error_reason ? { errorReason: result.error_reason } : {}),
    ...(!waiting && turn.failure ? { errorReason: turn.failure } : {}),
    ...(result ? { usage: usageOf(result) } : {}),
  };
}

/** The turn a session waits in; 409 when it waits for nothing. */
export function waitingTurn(session: ServedSession): LiveTurn {
  const turn = session.turn;
  // A turn that ended while nobody read it (the operator decided its hold meanwhile) still has
  // its events to give.
  if (!turn || (turn.finished && !turn.hasUnread))
    throw new ServeProblem(409, `session "${session.id}" has no turn waiting: send a message instead`);
  return turn;
}

/**
 * Refuses an attempt of the caller to decide a Novarch hold: holds are decided by operators
 * (`novarch holds approve|deny`, the console), never by the agent's caller.
 */
export function refuseHoldDecision(turn: LiveTurn, id: string): void {
  const hold = turn.pendingHolds().find((pending) => pending.holdId === id || pending.callId === id);
  if (hold)
    throw new ServeProblem(
      403,
      `"${id}" is a Novarch hold (${hold.toolName}, rules ${hold.ruleIds.join(', ')}): holds are decided by a Novarch operator, never by the agent's caller; the hold stays pending. Wait for the decision with POST /v1/sessions/{sessionId}/continue`,
    );
}

const respondsWithTurn = {
  json: TurnOutcomeSchema,
  eventStream: WireEventSchema,
  description: 'JSON (the turn until it finishes or waits), or with Accept: text/event-stream its events',
};

export const REST_ROUTES = [
  defineServeRoute({
    protocol: 'rest',
    method: 'post',
    path: '/v1/sessions',
    operationId: 'createSession',
    summary: 'Start a conversation: one agent session (a CLI process on Claude), owned by this API key',
    status: 201,
    response: { json: SessionSchema },
    async handle(request) {
      const session = await request.services.registry.create(request.owner);
      return {
        id: session.id,
        instance: request.services.registry.instanceId,
        createdAt: new Date(session.createdAt).toISOString(),
      };
    },
  }),
  defineServeRoute({
    protocol: 'rest',
    method: 'post',
    path: '/v1/sessions/{sessionId}/messages',
    operationId: 'sendMessage',
    summary: 'Send one user message; the turn streams (SSE) or answers as JSON. 409 while a turn runs',
    params: SessionParams,
    body: MessageBody,
    response: respondsWithTurn,
    async handle(request) {
      checkMessageLength(request.body.message, request.services, 'body.message');
      const session = await request.services.registry.get(request.params.sessionId, request.owner);
      const turn = request.services.registry.startTurn(session, request.body.message, 'rest');
      return answerTurn(request, session, turn);
    },
  }),
  defineServeRoute({
    protocol: 'rest',
    method: 'post',
    path: '/v1/sessions/{sessionId}/approvals/{callId}',
    operationId: 'answerApproval',
    summary:
      'Answer a tool call waiting for approval, and read the rest of the turn. A Novarch hold cannot be answered here (403)',
    params: ApprovalParams,
    body: ApprovalBody,
    response: respondsWithTurn,
    async handle(request) {
      const session = await request.services.registry.get(request.params.sessionId, request.owner);
      const turn = waitingTurn(session);
      refuseHoldDecision(turn, request.params.callId);
      const { decision, scope, reason } = request.body;
      const answered = turn.answer(
        request.params.callId,
        decision === 'allow'
          ? { behavior: 'allow', scope: scope ?? 'once' }
          : { behavior: 'deny', reason: reason ?? 'denied by the user' },
      );
      if (!answered)
        throw new ServeProblem(
          404,
          `no approval of call "${request.params.callId}" waits in session "${session.id}": the pending ones are listed by GET /v1/sessions/{sessionId}`,
        );
      session.lastActive = Date.now();
      return answerTurn(request, session, turn);
    },
  }),
  defineServeRoute({
    protocol: 'rest',
    method: 'post',
    path: '/v1/sessions/{sessionId}/continue',
    operationId: 'continueTurn',
    summary: 'Read on a turn that waits for a Novarch hold: the answer comes once an operator decided it',
    params: SessionParams,
    response: respondsWithTurn,
    async handle(request) {
      const session = await request.services.registry.get(request.params.sessionId, request.owner);
      const turn = waitingTurn(session);
      if (turn.pendingApprovals().length > 0)
        throw new ServeProblem(
          409,
          `the turn waits for your approval of call "${turn.pendingApprovals()[0]?.callId}": answer it with POST /v1/sessions/{sessionId}/approvals/{callId}`,
        );
      return answerTurn(request, session, turn);
    },
  }),
  defineServeRoute({
    protocol: 'rest',
    method: 'get',
    path: '/v1/sessions/{sessionId}',
    operationId: 'getSession',
    summary: 'A session: its messages and what its turn waits for',
    params: SessionParams,
    response: {
      json: z.object({
        id: z.string(),
        state: z.enum(['idle', 'running', 'requires_action']),
        messages: z.array(
          z.object({ id: z.string(), role: z.enum(['user', 'assistant']), content: z.string() }),
        ),
        pendingApprovals: z.array(PendingApprovalSchema),
        pendingHolds: z.array(PendingHoldSchema),
      }),
    },
    async handle(request) {
      const session = await request.services.registry.get(request.params.sessionId, request.owner);
      const turn = session.turn && !session.turn.finished ? session.turn : undefined;
      return Promise.resolve({
        id: session.id,
        state: turn === undefined ? 'idle' : turn.parked ? 'requires_action' : 'running',
        messages: session.transcript,
        pendingApprovals: (turn?.pendingApprovals() ?? []).map(({ callId, toolName, reason, ...rest }) => ({
          callId,
          toolName,
          arguments: rest.arguments,
          reason,
        })),
        pendingHolds: (turn?.pendingHolds() ?? []).map((hold) => ({
          holdId: hold.holdId,
          toolName: hold.toolName,
          actionType: hold.actionType,
          ruleIds: hold.ruleIds,
          rationale: hold.rationale,
          deadline: hold.deadline,
        })),
      });
    },
  }),
  defineServeRoute({
    protocol: 'rest',
    method: 'delete',
    path: '/v1/sessions/{sessionId}',
    operationId: 'deleteSession',
    summary: 'End a session: its turn is interrupted and its process ends',
    params: SessionParams,
    status: 204,
    response: { description: 'ended' },
    async handle(request) {
      const session = await request.services.registry.get(request.params.sessionId, request.owner);
      await request.services.registry.delete(session);
      return new Response(null, { status: 204 });
    },
  }),
];
