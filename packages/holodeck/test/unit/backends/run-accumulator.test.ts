import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { buildExecutionResult } from '../../../src/backends/claude/build-execution-result.js';
import { RunAccumulator } from '../../../src/backends/claude/run-accumulator.js';
import { compileUserSchema } from '../../../src/json-schema/create-ajv.js';

// Unit tests of pure translation code may use hand-built SDK messages (DESIGN.md).
const init = {
  type: 'system',
  subtype: 'init',
  session_id: 's-1',
  model: 'm',
  tools: ['Read'],
  mcp_servers: [],
};
const assistant = (content: unknown[]) => ({
  type: 'assistant',
  parent_tool_use_id: null,
  message: { content },
});
const user = (content: unknown[]) => ({
  type: 'user',
  parent_tool_use_id: null,
  message: { role: 'user', content },
});
const result = (extra: Record<string, unknown>) => ({
  type: 'result',
  subtype: 'success',
  is_error: false,
  num_turns: 2,
  result: 'done',
  session_id: 's-1',
  total_cost_usd: 0.01,
  usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 3, cache_creation_input_tokens: 0 },
  ...extra,
});

function feed(messages: unknown[], streaming = false) {
  const accumulator = new RunAccumulator(streaming);
  const events = messages.flatMap((message) => [...accumulator.accept(message as SDKMessage)]);
  return { accumulator, events };
}

const context = { startedAt: Date.now(), credentialHint: 'check ANTHROPIC_API_KEY (auth_provider: api_key)' };

describe('RunAccumulator', () => {
  it('pairs tool calls with results by id and maps usage', () => {
    const { accumulator, events } = feed([
      init,
      assistant([{ type: 'tool_use', id: 't1', name: 'mcp__holodeck_tools__lookup', input: { id: 'A' } }]),
      user([{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'found' }] }]),
      assistant([{ type: 'text', text: 'done' }]),
      result({}),
    ]);
    expect(events.map((event) => event.type)).toEqual(['tool-call', 'tool-result', 'text-delta']);
    expect(events[1]).toEqual({
      type: 'tool-result',
      callId: 't1',
      name: 'mcp__holodeck_tools__lookup',
      result: 'found',
      isError: false,
    });
    const outcome = buildExecutionResult(accumulator.state, context);
    expect(outcome).toMatchObject({
      response: 'done',
      tool_calls: [{ name: 'mcp__holodeck_tools__lookup', arguments: { id: 'A' }, call_id: 't1' }],
      tool_results: [{ call_id: 't1', result: 'found', is_error: false }],
      token_usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, cache_read_tokens: 3 },
      num_turns: 2,
      is_error: false,
      cost_usd: 0.01,
      session_id: 's-1',
    });
  });

  it('ignores subagent messages', () => {
    const { accumulator } = feed([
      {
        ...assistant([{ type: 'tool_use', id: 'x', name: 'Read', input: {} }]),
        parent_tool_use_id: 'parent',
      },
    ]);
    expect(accumulator.state.toolCalls).toEqual([]);
  });

  it('maps max_turns to the documented reason', () => {
    const { accumulator } = feed([init, result({ subtype: 'error_max_turns', is_error: true, errors: [] })]);
    expect(buildExecutionResult(accumulator.state, context)).toMatchObject({
      is_error: true,
      error_reason: 'max_turns limit reached',
    });
  });

  it('names the credential variable on an authentication failure', () => {
    const { accumulator } = feed([
      init,
      { ...assistant([{ type: 'text', text: 'Invalid API key' }]), error: 'authentication_failed' },
      result({ is_error: true, result: 'Invalid API key', api_error_status: 401 }),
    ]);
    expect(buildExecutionResult(accumulator.state, context).error_reason).toBe(
      'authentication failed: check ANTHROPIC_API_KEY (auth_provider: api_key). Invalid API key',
    );
  });

  it('treats success without structured output as an error when response_format is set', () => {
    const validate = compileUserSchema({
      type: 'object',
      required: ['answer'],
      properties: { answer: { type: 'string' } },
    });
    const missing = feed([init, result({})]).accumulator.state;
    expect(buildExecutionResult(missing, { ...context, validateStructuredOutput: validate })).toMatchObject({
      is_error: true,
      error_reason: 'response_format is configured but the agent returned no structured output',
    });
    const invalid = feed([init, result({ structured_output: { answer: 3 } })]).accumulator.state;
    expect(
      buildExecutionResult(invalid, { ...context, validateStructuredOutput: validate }).error_reason,
    ).toBe('structured output does not match response_format: /answer must be string');
    const valid = feed([init, result({ structured_output: { answer: 'yes' } })]).accumulator.state;
    expect(buildExecutionResult(valid, { ...context, validateStructuredOutput: validate })).toMatchObject({
      is_error: false,
      structured_output: { answer: 'yes' },
      response: '{"answer":"yes"}',
    });
  });

  it('reports a run with no result as an error', () => {
    const { accumulator } = feed([init]);
    expect(buildExecutionResult(accumulator.state, context)).toMatchObject({
      is_error: true,
      error_reason: 'the agent process ended without a result',
    });
  });

  it('yields text and thinking deltas from partial messages when streaming', () => {
    const delta = (delta: unknown) => ({
      type: 'stream_event',
      parent_tool_use_id: null,
      event: { type: 'content_block_delta', index: 0, delta },
    });
    const { events } = feed(
      [
        delta({ type: 'thinking_delta', thinking: 'hmm' }),
        delta({ type: 'text_delta', text: 'Hel' }),
        delta({ type: 'text_delta', text: 'lo' }),
        assistant([{ type: 'text', text: 'Hello' }]),
      ],
      true,
    );
    expect(events).toEqual([
      { type: 'thinking-delta', text: 'hmm' },
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
    ]);
  });
});
