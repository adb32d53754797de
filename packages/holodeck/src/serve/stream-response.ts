import { randomBytes } from 'node:crypto';
import type { ExecutionResult } from '../backends/contract/index.js';
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

/** Runs (or continues) the turn, translating its events to Responses items and stream events. */
export async function runResponse(
  services: ServeServices,
  turn: LiveTurn,
  base: Record<string, unknown>,
  send: SendEvent | undefined,
  signal: AbortSignal,
  log: Partial<RequestLogLine>,
): Promise<Record<string, unknown>> {
  let sequence = 0;
  const emit = (type: string, fields: Record<string, unknown>) =>
    send?.({ type, sequence_number: sequence++, ...fields }, type);
  const output: Record<string, unknown>[] = [];
  let message: { id: string; text: string; index: number } | undefined;
  const calls = new Map<string, Record<string, unknown>>();
  const label = services.agent.name;
  const closeMessage = () => {
    if (!message) return;
    const item = {
      id: message.id,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: message.text, annotations: [] }],
    };
    emit('response.output_text.done', {
      item_id: message.id,
      output_index: message.index,
      content_index: 0,
      text: message.text,
      logprobs: [],
    });
    emit('response.content_part.done', {
      item_id: message.id,
      output_index: message.index,
      content_index: 0,
      part: item.content[0],
    });
    emit('response.output_item.done', { output_index: message.index, item });
    output[message.index] = item;
    message = undefined;
  };
  emit('response.created', { response: { ...base, status: 'in_progress', output: [] } });
  emit('response.in_progress', { response: { ...base, status: 'in_progress', output: [] } });
  const stop = await readTurn(
    turn,
    (event) => {
      switch (event.type) {
        case 'text-delta': {
          if (!message) {
            message = { id: id('msg'), text: '', index: output.length };
            output.push({});
            emit('response.output_item.added', {
              output_index: message.index,
              item: {
                id: message.id,
                type: 'message',
                status: 'in_progress',
                role: 'assistant',
                content: [],
              },
            });
            emit('response.content_part.added', {
              item_id: message.id,
              output_index: message.index,
              content_index: 0,
              part: { type: 'output_text', text: '', annotations: [] },
            });
          }
          message.text += event.text;
          emit('response.output_text.delta', {
            item_id: message.id,
            output_index: message.index,
            content_index: 0,
            delta: event.text,
            logprobs: [],
          });
          return;
        }
        case 'tool-call': {
          closeMessage();
          const item = {
            id: id('mcp'),
            type: 'mcp_call',
            server_label: label,
            name: event.name,
            arguments: JSON.stringify(event.arguments),
          };
          calls.set(event.callId, item);
          emit('response.output_item.added', { output_index: output.length, item });
          output.push(item);
          return;
        }
        case 'tool-result': {
          let item = calls.get(event.callId);
          if (!item) {
            // The call was announced by the response that asked for its approval.
            const call = turn.toolCall(event.callId);
            item = {
              id: id('mcp'),
              type: 'mcp_call',
              server_label: label,
              name: event.name,
              arguments: JSON.stringify(call?.arguments ?? {}),
            };
            calls.set(event.callId, item);
            emit('response.output_item.added', { output_index: output.length, item });
            output.push(item);
          }
          if (event.isError) item.error = event.result;
          else item.output = event.result;
          emit('response.output_item.done', { output_index: output.indexOf(item), item });
          return;
        }
        case 'approval-request': {
          closeMessage();
          const item = {
            id: event.request.callId,
            type: 'mcp_approval_request',
            server_label: label,
            name: event.request.toolName,
            arguments: JSON.stringify(event.request.arguments),
          };
          emit('response.output_item.added', { output_index: output.length, item });
          emit('response.output_item.done', { output_index: output.length, item });
          output.push(item);
          return;
        }
        case 'hold-pending':
          emit('response.hold.pending', {
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
          emit('response.hold.resolved', {
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
    },
    signal,
    { throughHolds: true, log },
  );
  closeMessage();
  const result = turn.result;
  const failed = stop === 'finished' && (result === undefined || result.is_error);
  const body = {
    ...base,
    status: failed ? 'failed' : 'completed',
    completed_at: Math.floor(Date.now() / 1000),
    output: output.filter((item) => Object.keys(item).length > 0),
    error: failed
      ? { code: 'server_error', message: result?.error_reason ?? turn.failure ?? 'the agent run failed' }
      : null,
    usage: usage(result),
  };
  emit(failed ? 'response.failed' : 'response.completed', { response: body });
  return body;
}
