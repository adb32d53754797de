import { describe, expectTypeOf, it } from 'vitest';
import type {
  AgentBackend,
  AgentSession,
  AgentToolNames,
  BackendChecks,
  BackendOptions,
  BackendProfile,
  ExecutionResult,
  GovernanceSummary,
  SessionEvent,
  SessionEventType,
  TokenUsage,
  ToolCall,
  ToolResult,
} from '../../../src/backends/contract/index.js';

// Pins the backend contract: a change here is a change for every backend and consumer.
describe('backend contract shapes', () => {
  it('ExecutionResult', () => {
    expectTypeOf<ExecutionResult>().toEqualTypeOf<{
      response: string;
      tool_calls: ToolCall[];
      tool_results: ToolResult[];
      token_usage: TokenUsage;
      structured_output?: unknown;
      num_turns: number;
      is_error: boolean;
      error_reason?: string;
      cost_usd: number | null;
      duration_ms: number;
      session_id?: string;
      governance?: GovernanceSummary;
    }>();
    expectTypeOf<ToolCall>().toEqualTypeOf<{
      name: string;
      arguments: Record<string, unknown>;
      call_id: string;
    }>();
    expectTypeOf<ToolResult>().toEqualTypeOf<{ call_id: string; result: string; is_error: boolean }>();
  });

  it('SessionEvent is one union on type', () => {
    expectTypeOf<SessionEventType>().toEqualTypeOf<
      'session-start' | 'text-delta' | 'thinking-delta' | 'tool-call' | 'tool-result' | 'error' | 'finish'
    >();
    expectTypeOf<Extract<SessionEvent, { type: 'finish' }>>().toEqualTypeOf<{
      type: 'finish';
      result: ExecutionResult;
    }>();
  });

  it('AgentSession and AgentBackend methods', () => {
    expectTypeOf<AgentSession['send']>().toEqualTypeOf<(message: string) => Promise<ExecutionResult>>();
    expectTypeOf<AgentSession['sendStreaming']>().toEqualTypeOf<
      (message: string) => AsyncIterable<SessionEvent>
    >();
    expectTypeOf<AgentBackend['invokeOnce']>().parameter(0).toEqualTypeOf<string>();
    expectTypeOf<AgentBackend['createSession']>().returns.toEqualTypeOf<Promise<AgentSession>>();
    expectTypeOf<AgentSession['reset']>().toEqualTypeOf<() => Promise<void>>();
  });

  it('BackendProfile and BackendOptions', () => {
    expectTypeOf<BackendOptions>().toEqualTypeOf<{ prewarm?: number; prewarmBudget?: number }>();
    expectTypeOf<keyof BackendProfile>().toEqualTypeOf<
      'name' | 'isolationLevels' | 'checkConfig' | 'credentialWarnings' | 'toolNames' | 'sideEffects'
    >();
    expectTypeOf<BackendProfile['checkConfig']>().returns.toEqualTypeOf<Promise<BackendChecks>>();
    expectTypeOf<BackendProfile['toolNames']>().returns.toEqualTypeOf<AgentToolNames>();
  });
});
