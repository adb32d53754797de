import type { TextStreamPart, ToolSet } from 'ai';
import { errorMessage, isRecord } from '../../support.js';
import type { SessionEvent } from '../contract/index.js';
import { addTokenUsage } from '../contract/index.js';
import { mapUsage } from './map-usage.js';
import type { TurnState } from './turn-state.js';

/** A tool's output as text and error flag: HoloDeck tools answer `{text, isError}`; anything else is JSON. */
function toolOutput(output: unknown): { text: string; isError: boolean } {
  if (isRecord(output) && typeof output.text === 'string' && typeof output.isError === 'boolean') {
    return { text: output.text, isError: output.isError };
  }
  return { text: typeof output === 'string' ? output : (JSON.stringify(output) ?? ''), isError: false };
}

/**
 * Folds one part of the AI SDK's full stream into the run's state and returns the session events
 * it implies. Tool calls and results are paired by the call id; a tool the model called with
 * input that could not be parsed (or a tool that does not exist) is a call with an error result,
 * which the SDK also sends back to the model. Errors and aborts are recorded, not yielded: the run
 * reports them once, as its result, when the stream ends.
 */
export function translateStreamPart(part: TextStreamPart<ToolSet>, state: TurnState): SessionEvent[] {
  switch (part.type) {
    case 'start-step':
      state.stepText = '';
      state.stepsStarted += 1;
      state.wantsNextMessage = false;
      state.callWarnings.push(...part.warnings);
      return [];
    case 'text-delta':
      state.stepText += part.text;
      return part.text ? [{ type: 'text-delta', text: part.text }] : [];
    case 'reasoning-delta':
      return part.text ? [{ type: 'thinking-delta', text: part.text }] : [];
    case 'tool-call': {
      const args = isRecord(part.input) ? part.input : {};
      state.toolNames.set(part.toolCallId, part.toolName);
      state.wantsNextMessage = true;
      state.toolCalls.push({
        name: part.toolName,
        arguments: args,
        call_id: part.toolCallId,
        ...(state.toolKindOf ? { kind: state.toolKindOf(part.toolName) } : {}),
      });
      return [{ type: 'tool-call', callId: part.toolCallId, name: part.toolName, arguments: args }];
    }
    case 'tool-result': {
      if (part.preliminary) return [];
      const { text, isError } = toolOutput(part.output);
      return [recordResult(state, part.toolCallId, part.toolName, text, isError)];
    }
    case 'tool-error':
      return [recordResult(state, part.toolCallId, part.toolName, errorMessage(part.error), true)];
    case 'finish-step':
      state.steps += 1;
      state.finalText = state.stepText;
      state.lastFinishReason = part.finishReason;
      state.usage = addTokenUsage(state.usage, mapUsage(part.usage));
      return [];
    case 'error':
      state.error ??= { value: part.error };
      return [];
    case 'abort':
      state.abort = part.reason !== undefined ? { reason: part.reason } : {};
      return [];
    default:
      return [];
  }
}

function recordResult(
  state: TurnState,
  callId: string,
  toolName: string,
  text: string,
  isError: boolean,
): SessionEvent {
  state.toolResults.push({ call_id: callId, result: text, is_error: isError });
  return {
    type: 'tool-result',
    callId,
    name: state.toolNames.get(callId) ?? toolName,
    result: text,
    isError,
  };
}
