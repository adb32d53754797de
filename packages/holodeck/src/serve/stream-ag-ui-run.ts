import { randomUUID } from 'node:crypto';
import { EventType, PROTOCOL_VERSION } from '@ag-ui/core';
import type { SessionEvent } from '../backends/contract/index.js';
import type { LiveTurn } from './live-turn.js';
import { readTurn } from './read-turn.js';
import type { RequestLogLine } from './request-log.js';
import type { ServedSession } from './session-registry.js';
import type { SendEvent } from './sse-response.js';

// One AG-UI run over a served turn: its events as AG-UI events, until the turn finishes, fails
// or waits (RUN_FINISHED with an interrupt outcome).

/** The answer an approval interrupt expects (`responseSchema`). */
export const APPROVAL_RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    approved: { type: 'boolean', description: 'true runs the tool call, false refuses it' },
    reason: { type: 'string', description: 'why it is refused (the model receives it)' },
  },
  required: ['approved'],
  additionalProperties: false,
};

/** A hold expects no answer from the caller: resuming only waits for the operator's decision. */
export const HOLD_RESPONSE_SCHEMA = {
  type: 'object',
  properties: {},
  additionalProperties: false,
  description:
    'Decided by a Novarch operator, never by the caller: resume with an empty payload to wait for the decision',
};

/** Interrupt ids of holds: `hold:<holdId>` (an approval's is its tool call id). */
export const HOLD_PREFIX = 'hold:';

type EventOf<T extends SessionEvent['type']> = Extract<SessionEvent, { type: T }>;
const now = () => Date.now();

/** A run's AG-UI events as its turn's events arrive: the open text message, and whether the run ended. */
class AgUiRunEvents {
  #messageId: string | undefined;
  /** The assistant's text, for the snapshot when the transcript lacks it. */
  text = '';
  /** RUN_FINISHED was sent (an interrupt). */
  finished = false;

  constructor(
    private readonly ids: { threadId: string; runId: string },
    private readonly send: SendEvent,
  ) {}

  endMessage(): void {
    const messageId = this.#messageId;
    if (messageId) this.send({ type: EventType.TEXT_MESSAGE_END, messageId, timestamp: now() });
    this.#messageId = undefined;
  }

  onEvent(event: SessionEvent): void {
    const send = this.send;
    switch (event.type) {
      case 'text-delta':
        this.#text(event.text);
        return;
      case 'tool-call':
        this.endMessage();
        send({
          type: EventType.TOOL_CALL_START,
          toolCallId: event.callId,
          toolCallName: event.name,
          timestamp: now(),
        });
        send({
          type: EventType.TOOL_CALL_ARGS,
          toolCallId: event.callId,
          delta: JSON.stringify(event.arguments),
          timestamp: now(),
        });
        send({ type: EventType.TOOL_CALL_END, toolCallId: event.callId, timestamp: now() });
        return;
      case 'tool-result':
        send({
          type: EventType.TOOL_CALL_RESULT,
          messageId: randomUUID(),
          toolCallId: event.callId,
          content: event.result,
          role: 'tool',
          timestamp: now(),
        });
        return;
      case 'approval-request':
        this.#approvalInterrupt(event);
        return;
      case 'hold-pending':
        this.#holdInterrupt(event);
        return;
      case 'hold-resolved':
        send({
          type: EventType.CUSTOM,
          name: 'holodeck.hold_resolved',
          value: {
            holdId: event.hold.holdId,
            status: event.hold.status,
            decidedBy: event.hold.decidedBy ?? null,
            rationale: event.hold.rationale ?? null,
          },
          timestamp: now(),
        });
        return;
      case 'error':
      case 'finish':
      case 'session-start':
      case 'thinking-delta':
        return;
    }
  }

  #text(delta: string): void {
    if (delta === '') return;
    let messageId = this.#messageId;
    if (!messageId) {
      messageId = randomUUID();
      this.#messageId = messageId;
      this.send({ type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant', timestamp: now() });
    }
    this.text += delta;
    this.send({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta, timestamp: now() });
  }

  /** Ends the run with an interrupt outcome: it waits for an answer (approval) or a decision (hold). */
  #interrupt(interrupt: Record<string, unknown>): void {
    this.endMessage();
    this.send({
      type: EventType.RUN_FINISHED,
      threadId: this.ids.threadId,
      runId: this.ids.runId,
      timestamp: now(),
      outcome: { type: 'interrupt', interrupts: [interrupt] },
    });
    this.finished = true;
  }

  #approvalInterrupt(event: EventOf<'approval-request'>): void {
    this.#interrupt({
      id: event.request.callId,
      reason: 'approval',
      toolCallId: event.request.callId,
      message: `${event.request.toolName} needs your approval (${event.request.reason})`,
      responseSchema: APPROVAL_RESPONSE_SCHEMA,
    });
  }

  #holdInterrupt(event: EventOf<'hold-pending'>): void {
    this.#interrupt({
      id: `${HOLD_PREFIX}${event.hold.holdId}`,
      reason: 'policy_hold',
      ...(event.hold.callId === undefined ? {} : { toolCallId: event.hold.callId }),
      message: `${event.hold.toolName} is held by Novarch rules ${event.hold.ruleIds.join(', ')} for an operator's decision: ${event.hold.rationale}`,
      responseSchema: HOLD_RESPONSE_SCHEMA,
      expiresAt: event.hold.deadline,
    });
  }
}

/** Streams one AG-UI run over the turn: until it finishes, fails, or waits (an interrupt). */
export async function streamRun(
  session: ServedSession,
  turn: LiveTurn,
  ids: { threadId: string; runId: string },
  send: SendEvent,
  signal: AbortSignal,
  log: Partial<RequestLogLine>,
): Promise<void> {
  send({
    type: EventType.RUN_STARTED,
    threadId: ids.threadId,
    runId: ids.runId,
    protocolVersion: PROTOCOL_VERSION,
    timestamp: now(),
  });
  const run = new AgUiRunEvents(ids, send);
  const stop = await readTurn(turn, (event) => run.onEvent(event), signal, { log });
  if (run.finished || stop === 'disconnected') return;
  run.endMessage();
  const result = turn.result;
  if (!result || result.is_error) {
    send({
      type: EventType.RUN_ERROR,
      message: result?.error_reason ?? turn.failure ?? 'the agent run failed',
      code: 'agent_run_failed',
      timestamp: now(),
    });
    return;
  }
  const history = session.transcript.map((message) => ({
    id: message.id,
    role: message.role,
    content: message.content,
  }));
  if (history.at(-1)?.role !== 'assistant')
    history.push({
      id: `msg-${history.length + 1}`,
      role: 'assistant',
      content: result.response || run.text,
    });
  send({ type: EventType.MESSAGES_SNAPSHOT, messages: history, timestamp: now() });
  send({
    type: EventType.RUN_FINISHED,
    threadId: ids.threadId,
    runId: ids.runId,
    timestamp: now(),
    outcome: { type: 'success' },
  });
}
