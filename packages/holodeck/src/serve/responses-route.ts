import { z } from 'zod';
import type { LiveTurn } from './live-turn.js';
import { checkMessageLength, refuseHoldDecision } from './rest-routes.js';
import { ServeProblem } from './serve-problem.js';
import { defineServeRoute } from './serve-route.js';
import type { ServeServices } from './serve-services.js';
import type { ServedSession } from './session-registry.js';
import { sseResponse } from './sse-response.js';
import { id, runResponse } from './stream-response.js';

// The OpenAI Responses API over a served session: `previous_response_id` continues the session
// of that response; the agent's own tools run server-side and show as `mcp_call` items; a tool
// call that needs approval is an `mcp_approval_request` item, answered by an
// `mcp_approval_response` input item (the Responses API's own approval flow). A Novarch hold keeps
// the response waiting for the operator (streamed as `response.hold.pending` / `.resolved`).

const TextContent = z.union([
  z.string(),
  z.array(z.looseObject({ type: z.enum(['input_text', 'output_text', 'text']), text: z.string() })),
]);
const MessageItem = z.looseObject({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: TextContent,
});
const ApprovalResponseItem = z.looseObject({
  type: z.literal('mcp_approval_response'),
  approval_request_id: z.string().min(1),
  approve: z.boolean(),
  reason: z.string().optional(),
});
const InputItem = z.union([ApprovalResponseItem, MessageItem]);

const ResponsesBody = z.strictObject({
  /** Any value: the agent answers with its own model (agent.yaml), named in the response. */
  model: z.string().optional(),
  input: z.union([z.string().min(1), z.array(InputItem).min(1)]),
  stream: z.boolean().optional(),
  previous_response_id: z.string().min(1).optional(),
  store: z
    .literal(true, { error: 'must be true: responses are kept so previous_response_id can continue them' })
    .optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  instructions: z
    .never({ error: "is not accepted: the agent's instructions are its own (agent.yaml instructions)" })
    .optional(),
  tools: z
    .never({
      error: "is not accepted: the agent's tools are its own (agent.yaml tools); they run server-side",
    })
    .optional(),
});
type ResponsesInput = z.infer<typeof ResponsesBody>;

/** A stored response and the session it belongs to. */
interface StoredResponse {
  owner: string;
  sessionId: string;
  body: Record<string, unknown>;
}

function responsesOf(services: ServeServices): Map<string, StoredResponse> {
  const existing = services.state.get('responses');
  if (existing instanceof Map) return existing as Map<string, StoredResponse>;
  const created = new Map<string, StoredResponse>();
  services.state.set('responses', created);
  return created;
}

function textOf(content: z.infer<typeof TextContent>): string {
  return typeof content === 'string' ? content : content.map((part) => part.text).join('');
}

/** What the caller sent: a user message, or answers to approval requests. */
function readInput(body: ResponsesInput): {
  message?: string;
  approvals: z.infer<typeof ApprovalResponseItem>[];
} {
  if (typeof body.input === 'string') return { message: body.input, approvals: [] };
  const approvals = body.input.filter((item) => item.type === 'mcp_approval_response');
  const messages = body.input.filter((item) => item.type !== 'mcp_approval_response');
  const system = messages.findIndex((item) => item.role === 'system' || item.role === 'developer');
  if (system >= 0)
    throw new ServeProblem(
      400,
      `body.input.${system}: a ${messages[system]?.role} message is not accepted: the agent's instructions are its own (agent.yaml instructions)`,
    );
  const assistant = messages.findIndex((item) => item.role === 'assistant');
  if (assistant >= 0)
    throw new ServeProblem(
      400,
      `body.input.${assistant}: an assistant message is not accepted: the server keeps the conversation; continue it with previous_response_id`,
    );
  const text = messages.map((item) => textOf(item.content)).join('\n\n');
  return { ...(text ? { message: text } : {}), approvals };
}

export const RESPONSES_ROUTES = [
  defineServeRoute({
    protocol: 'responses',
    method: 'post',
    path: '/v1/responses',
    operationId: 'createResponse',
    summary:
      'OpenAI Responses: a turn of the agent (stream or not); previous_response_id continues its conversation, mcp_approval_response items answer approvals',
    body: ResponsesBody,
    response: {
      json: z.record(z.string(), z.unknown()),
      eventStream: z.record(z.string(), z.unknown()),
      description: 'a Response object, or with stream: true its events',
    },
    async handle(request) {
      const { services, body } = request;
      const responses = responsesOf(services);
      const input = readInput(body);
      if (input.message !== undefined) checkMessageLength(input.message, services, 'body.input');
      let session: ServedSession;
      if (body.previous_response_id !== undefined) {
        const previous = responses.get(body.previous_response_id);
        if (!previous || previous.owner !== request.owner)
          throw new ServeProblem(
            404,
            `body.previous_response_id: no response "${body.previous_response_id}" for this API key`,
          );
        session = await services.registry.get(previous.sessionId, request.owner);
      } else {
        if (input.approvals.length > 0)
          throw new ServeProblem(
            400,
            'body.input: an mcp_approval_response needs the previous_response_id of the response that asked',
          );
        session = await services.registry.create(request.owner);
      }
      request.log.session = session.id;
      let turn: LiveTurn;
      if (input.approvals.length > 0) {
        const waiting = session.turn;
        if (!waiting || waiting.finished)
          throw new ServeProblem(409, 'body.input: no approval request waits in this conversation');
        for (const approval of input.approvals) {
          refuseHoldDecision(waiting, approval.approval_request_id);
          const answered = waiting.answer(
            approval.approval_request_id,
            approval.approve
              ? { behavior: 'allow', scope: 'once' }
              : { behavior: 'deny', reason: approval.reason ?? 'denied by the user' },
          );
          if (!answered)
            throw new ServeProblem(
              404,
              `body.input: no approval request "${approval.approval_request_id}" waits in this conversation`,
            );
        }
        if (input.message !== undefined)
          throw new ServeProblem(
            400,
            'body.input: send approval answers alone; the user message goes in the next request',
          );
        turn = waiting;
      } else {
        if (input.message === undefined) throw new ServeProblem(400, 'body.input: holds no user message');
        turn = services.registry.startTurn(session, input.message, 'responses');
      }
      const responseId = id('resp');
      const base = {
        id: responseId,
        object: 'response',
        created_at: Math.floor(Date.now() / 1000),
        model: services.agent.model,
        previous_response_id: body.previous_response_id ?? null,
        metadata: body.metadata ?? {},
        parallel_tool_calls: false,
        tool_choice: 'auto',
        tools: [],
        store: true,
        text: { format: { type: 'text' } },
      };
      const store = (final: Record<string, unknown>) =>
        responses.set(responseId, { owner: request.owner, sessionId: session.id, body: final });
      const raw = request.context.req.raw;
      if (body.stream)
        return sseResponse(raw, async (send, signal) => {
          store(await runResponse(services, turn, base, send, signal, request.log));
        });
      const final = await runResponse(services, turn, base, undefined, raw.signal, request.log);
      store(final);
      return final;
    },
  }),
  defineServeRoute({
    protocol: 'responses',
    method: 'get',
    path: '/v1/responses/{responseId}',
    operationId: 'getResponse',
    summary: 'A response made by this API key',
    params: z.strictObject({ responseId: z.string().min(1) }),
    response: { json: z.record(z.string(), z.unknown()) },
    handle(request) {
      const stored = responsesOf(request.services).get(request.params.responseId);
      if (!stored || stored.owner !== request.owner)
        throw new ServeProblem(404, `no response "${request.params.responseId}" for this API key`);
      return Promise.resolve(stored.body);
    },
  }),
];
