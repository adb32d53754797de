import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { z } from 'zod';
import type { LiveTurn } from './live-turn.js';
import { checkMessageLength } from './rest-routes.js';
import { ServeProblem } from './serve-problem.js';
import { defineServeRoute } from './serve-route.js';
import type { ServeServices } from './serve-services.js';
import type { ServedSession } from './session-registry.js';
import { sseResponse } from './sse-response.js';
import { HOLD_PREFIX, streamRun } from './stream-ag-ui-run.js';

// AG-UI 1.0 over a served session: RunAgentInput in, an SSE stream of AG-UI events out. A thread
// is a session (the first run of an unknown thread id starts one). A tool call waiting for
// approval, or a write held by Novarch, ends the run with RUN_FINISHED `outcome: interrupt`; the
// next run answers it in `RunAgentInput.resume` and the same turn goes on.

const ApprovalPayload = z.strictObject({ approved: z.boolean(), reason: z.string().min(1).optional() });

function threadsOf(services: ServeServices): Map<string, string> {
  const existing = services.state.get('ag-ui-threads');
  if (existing instanceof Map) return existing as Map<string, string>;
  const created = new Map<string, string>();
  services.state.set('ag-ui-threads', created);
  return created;
}

/** The session of a thread: this key's session of that id, or the one its first run started. */
async function sessionOf(services: ServeServices, owner: string, threadId: string): Promise<ServedSession> {
  const threads = threadsOf(services);
  const known = threads.get(`${owner}\u0000${threadId}`);
  if (known !== undefined) return await services.registry.get(known, owner);
  if (threadId.startsWith(`${services.registry.instanceId}.`) || /^[a-z0-9-]+\.[0-9a-f]{32}$/.test(threadId))
    return await services.registry.get(threadId, owner);
  const session = await services.registry.create(owner);
  threads.set(`${owner}\u0000${threadId}`, session.id);
  return session;
}

/** Applies the resume entries to the waiting turn; refuses any attempt to decide a Novarch hold. */
function applyResume(
  turn: LiveTurn,
  resume: readonly { interruptId: string; status: string; payload?: unknown }[],
): void {
  for (const [index, entry] of resume.entries()) {
    const path = `body.resume.${index}`;
    const holdId = entry.interruptId.startsWith(HOLD_PREFIX)
      ? entry.interruptId.slice(HOLD_PREFIX.length)
      : undefined;
    const hold = turn
      .pendingHolds()
      .find((pending) => pending.holdId === holdId || pending.callId === entry.interruptId);
    if (hold) {
      const empty =
        entry.payload === undefined ||
        (typeof entry.payload === 'object' &&
          entry.payload !== null &&
          Object.keys(entry.payload).length === 0);
      if (entry.status !== 'resolved' || !empty)
        throw new ServeProblem(
          403,
          `${path}: "${entry.interruptId}" is a Novarch hold: it is decided by a Novarch operator, never by the agent's caller, and stays pending; resume with status "resolved" and an empty payload to wait for the decision`,
        );
      continue;
    }
    // Decided by the operator before this resume: the resumed run reports the decision.
    if (holdId !== undefined && turn.holdWasResolved(holdId)) continue;
    if (holdId !== undefined)
      throw new ServeProblem(409, `${path}: no hold "${holdId}" waits in this thread`);
    let decided = false;
    if (entry.status === 'cancelled')
      decided = turn.answer(entry.interruptId, { behavior: 'deny', reason: 'cancelled by the user' });
    else {
      const payload = ApprovalPayload.safeParse(entry.payload);
      if (!payload.success)
        throw new ServeProblem(
          400,
          `${path}.payload: must be {"approved": true|false, "reason"?: string} (the interrupt's responseSchema)`,
        );
      decided = turn.answer(
        entry.interruptId,
        payload.data.approved
          ? { behavior: 'allow', scope: 'once' }
          : { behavior: 'deny', reason: payload.data.reason ?? 'denied by the user' },
      );
    }
    if (!decided)
      throw new ServeProblem(409, `${path}: no interrupt "${entry.interruptId}" waits in this thread`);
  }
}

export const AG_UI_ROUTES = [
  defineServeRoute({
    protocol: 'ag-ui',
    method: 'post',
    path: '/ag-ui',
    operationId: 'runAgUi',
    summary:
      'AG-UI 1.0: RunAgentInput in, AG-UI events out (SSE). threadId names the conversation; approvals and Novarch holds end a run with an interrupt outcome, answered by resume',
    rawBody: { description: 'an AG-UI RunAgentInput' },
    response: {
      eventStream: z.record(z.string(), z.unknown()),
      description: 'AG-UI events, one per data: line',
    },
    async handle(request) {
      const parsed = RunAgentInputSchema.safeParse(request.body);
      if (!parsed.success)
        throw new ServeProblem(
          400,
          `body is not an AG-UI RunAgentInput: ${parsed.error.issues.map((issue) => `body.${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
        );
      const input = parsed.data;
      const { services } = request;
      const session = await sessionOf(services, request.owner, input.threadId);
      request.log.session = session.id;
      let turn: LiveTurn;
      const resume = input.resume ?? [];
      if (resume.length > 0) {
        const waiting = session.turn;
        if (!waiting || (waiting.finished && !waiting.hasUnread))
          throw new ServeProblem(
            409,
            'body.resume: nothing waits in this thread: start a run with a user message instead',
          );
        applyResume(waiting, resume);
        turn = waiting;
      } else {
        const last = input.messages.at(-1);
        if (last?.role !== 'user')
          throw new ServeProblem(
            400,
            'body.messages: the last message must be the user message to answer (or send resume to continue an interrupted run)',
          );
        const content =
          typeof last.content === 'string'
            ? last.content
            : last.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
        if (content === '') throw new ServeProblem(400, 'body.messages: the last user message has no text');
        checkMessageLength(content, services, `body.messages.${input.messages.length - 1}.content`);
        turn = services.registry.startTurn(session, content, 'ag-ui');
      }
      return sseResponse(request.context.req.raw, (send, signal) =>
        streamRun(session, turn, { threadId: input.threadId, runId: input.runId }, send, signal, request.log),
      );
    },
  }),
];
