import type {
  HookCallback,
  HookEvent,
  HookInput,
  HookJSONOutput,
  SDKAssistantMessage,
  SDKResultMessage,
  SDKUserMessage,
} from '@anthropic-ai/claude-agent-sdk';
import type { NovarchHookGate } from '../../../../src/index.js';

// Hand-built hook inputs, shaped as the Claude CLI sends them, so the gate's decisions can be
// tested without spawning it (the e2e tests cover the real CLI).

const BASE = { session_id: 'sdk-session', transcript_path: '/tmp/transcript.jsonl', cwd: '/tmp' };

/** The gate's hooks, called as the SDK calls them. */
export interface GateHooks {
  pre(
    toolName: string,
    toolInput: unknown,
    toolUseId: string,
    options?: { agentId?: string; signal?: AbortSignal },
  ): Promise<HookJSONOutput>;
  post(toolName: string, toolInput: unknown, toolUseId: string, response: unknown): Promise<HookJSONOutput>;
  postFailure(
    toolName: string,
    toolInput: unknown,
    toolUseId: string,
    error: string,
  ): Promise<HookJSONOutput>;
}

function callbackOf(gate: NovarchHookGate, event: HookEvent): HookCallback {
  const matchers = gate.hooksConfig()[event];
  const callback = matchers?.[0]?.hooks[0];
  if (matchers?.length !== 1 || matchers[0]?.hooks.length !== 1 || !callback)
    throw new Error(`expected one ${event} hook from the gate`);
  return callback;
}

export function gateHooks(gate: NovarchHookGate): GateHooks {
  const call = (event: HookEvent, input: HookInput, toolUseId: string, signal?: AbortSignal) =>
    callbackOf(gate, event)(input, toolUseId, { signal: signal ?? new AbortController().signal });
  return {
    pre: (tool_name, tool_input, tool_use_id, options = {}) =>
      call(
        'PreToolUse',
        {
          ...BASE,
          hook_event_name: 'PreToolUse',
          tool_name,
          tool_input,
          tool_use_id,
          ...(options.agentId === undefined ? {} : { agent_id: options.agentId }),
        },
        tool_use_id,
        options.signal,
      ),
    post: (tool_name, tool_input, tool_use_id, tool_response) =>
      call(
        'PostToolUse',
        { ...BASE, hook_event_name: 'PostToolUse', tool_name, tool_input, tool_use_id, tool_response },
        tool_use_id,
      ),
    postFailure: (tool_name, tool_input, tool_use_id, error) =>
      call(
        'PostToolUseFailure',
        { ...BASE, hook_event_name: 'PostToolUseFailure', tool_name, tool_input, tool_use_id, error },
        tool_use_id,
      ),
  };
}

/** The refusal reason when the hook denied the call; undefined when it let the call run. */
export function denyReason(output: HookJSONOutput): string | undefined {
  if ('async' in output) return undefined;
  const specific = output.hookSpecificOutput;
  if (specific?.hookEventName !== 'PreToolUse' || specific.permissionDecision !== 'deny') return undefined;
  return specific.permissionDecisionReason ?? '';
}

/** True when the gate expressed no opinion: the call runs (the user's own permission rules still apply). */
export function isNoOpinion(output: HookJSONOutput): boolean {
  return Object.keys(output).length === 0;
}

/** The user message the SDK stream carries after a tool call: its result, as the model is sent it. */
export function toolResultMessage(toolUseId: string, text: string, isError: boolean): SDKUserMessage {
  return {
    type: 'user',
    session_id: 'sdk-session',
    parent_tool_use_id: null,
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: toolUseId, content: text, is_error: isError }],
    },
  };
}

/**
 * One SDK assistant message of a streamed model message `messageId` carrying these tool_use
 * blocks (the CLI sends one SDK message per block, all with the API message's id).
 */
export function assistantToolUses(messageId: string, toolUseIds: string[]): SDKAssistantMessage {
  return {
    type: 'assistant',
    session_id: 'sdk-session',
    parent_tool_use_id: null,
    uuid: '00000000-0000-4000-8000-000000000001',
    message: {
      id: messageId,
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: toolUseIds.map((id) => ({ type: 'tool_use', id, name: 'tool', input: {} })),
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    },
  } as unknown as SDKAssistantMessage;
}

/** The message that ends a run. */
export function resultMessage(): SDKResultMessage {
  return {
    type: 'result',
    subtype: 'success',
    result: 'done',
    is_error: false,
    duration_ms: 1,
    duration_api_ms: 1,
    num_turns: 1,
    session_id: 'sdk-session',
    total_cost_usd: 0,
    usage: { input_tokens: 0, output_tokens: 0 },
    modelUsage: {},
    permission_denials: [],
    uuid: '00000000-0000-4000-8000-000000000000',
  } as unknown as SDKResultMessage;
}

/** The messages as an async stream, like a query. */
export async function* messages<T>(...items: T[]): AsyncGenerator<T> {
  yield* items;
}
