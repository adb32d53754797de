import { randomBytes } from 'node:crypto';
import type { ExecutionResult, SessionEvent } from '../backends/contract/index.js';
import type { LiveTurn } from './live-turn.js';
import { readTurn } from './read-turn.js';
import type { RequestLogLine } from './request-log.js';
import type { ServeServices } from './serve-services.js';
import type { SendEvent } from './sse-response.js';

// A turn as an OpenAI Responses response: its events as `response.*` stream events (when
// streamed) and the final Response object with its output items.

/** A new id of a Responses object: `resp_…`, `msg_…`, `mcp_…`. */
export const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

function usage(result: ExecutionResult | undefined) {
  const tokens = result?.token_usage;
  return {
    input_tokens: tokens?.prompt_tokens ?? 0,
    input_tokens_details: { cached_tokens: tokens?.cache_read_tokens ?? 0 },
    output_tokens: tokens?.completion_tokens ?? 0,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: tokens?.total_tokens ?? 0,
  };
}

type Item = Record<string, unknown>;
type EventOf<T extends SessionEvent['type']> = Extract<SessionEvent, { type: T }>;

/** The output items of one response as its turn's events arrive, each change sent as a stream event. */
class ResponseOutput {
  readonly items: Item[] = [];
  #sequence = 0;
  #message: { id: string; text: string; index: number } | undefined;
  readonly #calls = new Map<string, Item>();

  constructor(
    private readonly turn: LiveTurn,
    private readonly label: string,
    private readonly send: SendEvent | undefined,
  ) {}

  emit(type: string, fields: Record<string, unknown>): void {
    this.send?.({ type, sequence_number: this.#sequence++, ...fields }, type);
  }

  onEvent(event: SessionEvent): void {
    switch (event.type) {
      case 'text-delta':
        this.#text(event.text);
        return;
      case 'tool-call':
        this.#toolCall(event);
        return;
      case 'tool-result':
        this.#toolResult(event);
        return;
      case 'approval-request':
        this.#approvalRequest(event);
        return;
      case 'hold-pending':
        this.emit('response.hold.pending', {
          hold: {
            hold_id: event.hold.holdId,
            tool_name: event.hold.toolName,
            rule_ids: event.hold.ruleIds,
            rationale: event.hold.rationale,
            deadline: event.hold.deadline,
          },
        });
        return;
      case 'hold-resolved':
        this.emit('response.hold.resolved', {
          hold: {
            hold_id: event.hold.holdId,
            status: event.hold.status,
            decided_by: event.hold.decidedBy ?? null,
            rationale: event.hold.rationale ?? null,
          },
        });
        return;
      default:
        return;
    }
  }

  /** Text goes into the open message item, opened at the first delta after anything else. */
  #text(text: string): void {
    let message = this.#message;
    if (!message) {
      message = { id: id('msg'), text: '', index: this.items.length };
      this.#message = message;
      this.items.push({});
      this.emit('response.output_item.added', {
        output_index: message.index,
        item: { id: message.id, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
      });
      this.emit('response.content_part.added', {
        item_id: message.id,
        output_index: message.index,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
    }
    message.text += text;
    this.emit('response.output_text.delta', {
      item_id: message.id,
      output_index: message.index,
      content_index: 0,
      delta: text,
      logprobs: [],
    });
  }

  /** Ends the open message item, if any: its text is complete. */
  closeMessage(): void {
    const message = this.#message;
    if (!message) return;
    const item = {
      id: message.id,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: message.text, annotations: [] }],
    };
    this.emit('response.output_text.done', {
      item_id: message.id,
      output_index: message.index,
      content_index: 0,
      text: message.text,
      logprobs: [],
    });
    this.emit('response.content_part.done', {
      item_id: message.id,
      output_index: message.index,
      content_index: 0,
      part: item.content[0],
    });
    this.emit('response.output_item.done', { output_index: message.index, item });
    this.items[message.index] = item;
    this.#message = undefined;
  }

  #addCall(callId: string, name: string, args: unknown): Item {
    const item = {
      id: id('mcp'),
      type: 'mcp_call',
      server_label: this.label,
      name,
      arguments: JSON.stringify(args),
    };
    this.#calls.set(callId, item);
    this.emit('response.output_item.added', { output_index: this.items.length, item });
    this.items.push(item);
    return item;
  }

  #toolCall(event: EventOf<'tool-call'>): void {
    this.closeMessage();
    this.#addCall(event.callId, event.name, event.arguments);
  }

  #toolResult(event: EventOf<'tool-result'>): void {
    // Without its call: the call was announced by the response that asked for its approval.
    const item =
      this.#calls.get(event.callId) ??
      this.#addCall(event.callId, event.name, this.turn.toolCall(event.callId)?.arguments ?? {});
    if (event.isError) item.error = event.result;
    else item.output = event.result;
    this.emit('response.output_item.done', { output_index: this.items.indexOf(item), item });
  }

  #approvalRequest(event: EventOf<'approval-request'>): void {
    this.closeMessage();
    const item = {
      id: event.request.callId,
      type: 'mcp_approval_request',
      server_label: this.label,
      name: event.request.toolName,
      arguments: JSON.stringify(event.request.arguments),
    };
    this.emit('response.output_item.added', { output_index: this.items.length, item });
    this.emit('response.output_item.done', { output_index: this.items.length, item });
    this.items.push(item);
  }
}

/** Runs (or continues) the turn, translating its events to Responses items and stream events. */
export async function runResponse(
  services: ServeServices,
  turn: LiveTurn,
  base: Record<string, unknown>,
  send: SendEvent | undefined,
  signal: AbortSignal,
  log: Partial<RequestLogLine>,
): Promise<Record<string, unknown>> {
  const output = new ResponseOutput(turn, services.agent.name, send);
  output.emit('response.created', { response: { ...base, status: 'in_progress', output: [] } });
  output.emit('response.in_progress', { response: { ...base, status: 'in_progress', output: [] } });
  const stop = await readTurn(turn, (event) => output.onEvent(event), signal, { throughHolds: true, log });
  output.closeMessage();
  const result = turn.result;
  const failed = stop === 'finished' && (result === undefined || result.is_error);
  const body = {
    ...base,
    status: failed ? 'failed' : 'completed',
    completed_at: Math.floor(Date.now() / 1000),
    output: output.items.filter((item) => Object.keys(item).length > 0),
    error: failed
      ? { code: 'server_error', message: result?.error_reason ?? turn.failure ?? 'the agent run failed' }
      : null,
    usage: usage(result),
  };
  output.emit(failed ? 'response.failed' : 'response.completed', { response: body });
  return body;
}
