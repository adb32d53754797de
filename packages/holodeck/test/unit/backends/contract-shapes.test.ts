import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NovarchEngine, openSqliteStore } from 'novarch';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  AgentBackend,
  AgentSession,
  AgentToolNames,
  BackendChecks,
  BackendOptions,
  BackendProfile,
  ElicitationAnswer,
  ElicitationRecord,
  ExecutionResult,
  GovernanceSummary,
  GovernanceVerdict,
  InvokeOptions,
  ModelTraffic,
  PendingHold,
  ProgressListener,
  ResolvedHold,
  RunProgress,
  SessionEvent,
  SessionEventType,
  TokenUsage,
  ToolCall,
  ToolResult,
  TurnOptions,
} from '../../../src/backends/contract/index.js';
import { summariseSession } from '../../../src/backends/governance/open-governance.js';

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
      cost_unknown_reason?: string;
      duration_ms: number;
      session_id?: string;
      governance?: GovernanceSummary;
    }>();
    expectTypeOf<ToolCall>().toEqualTypeOf<{
      name: string;
      arguments: Record<string, unknown>;
      call_id: string;
      kind?: 'builtin' | 'function' | 'mcp' | 'retrieval';
    }>();
    expectTypeOf<ToolResult>().toEqualTypeOf<{ call_id: string; result: string; is_error: boolean }>();
  });

  /**
   * Novarch's decisions: `verdicts` stay the judge's (with what an operator made of a hold), and
   * refusals without a judgement (the gate's own, the agent's permission rules') are apart.
   */
  it('GovernanceSummary keeps the judge verdicts apart from refusals', () => {
    expectTypeOf<GovernanceSummary>().toEqualTypeOf<{
      session_id: string;
      verdicts: GovernanceVerdict[];
      refusals?: GovernanceSummary['refusals'];
      killed: boolean;
    }>();
    expectTypeOf<GovernanceVerdict>().toEqualTypeOf<{
      tool: string;
      action_type: string;
      verdict: 'pass' | 'kill' | 'hold';
      hold_status?: 'pending' | 'approved' | 'denied' | 'skipped' | 'timed_out';
      rule_ids: string[];
      rationale: string;
    }>();
    expectTypeOf<NonNullable<GovernanceSummary['refusals']>[number]>().toEqualTypeOf<{
      tool: string;
      action_type: string;
      source: 'gate' | 'permissions';
      rationale: string;
    }>();
  });

  it('SessionEvent is one union on type', () => {
    expectTypeOf<SessionEventType>().toEqualTypeOf<
      | 'session-start'
      | 'text-delta'
      | 'thinking-delta'
      | 'tool-call'
      | 'tool-result'
      | 'approval-request'
      | 'elicitation-request'
      | 'elicitation-resolved'
      | 'hold-pending'
      | 'hold-resolved'
      | 'error'
      | 'finish'
    >();
    expectTypeOf<Extract<SessionEvent, { type: 'hold-pending' }>['hold']>().toEqualTypeOf<PendingHold>();
    expectTypeOf<ResolvedHold['status']>().toEqualTypeOf<'approved' | 'denied' | 'skipped' | 'timed_out'>();
    expectTypeOf<keyof PendingHold>().toEqualTypeOf<
      | 'holdId'
      | 'callId'
      | 'toolName'
      | 'actionType'
      | 'ruleIds'
      | 'rationale'
      | 'createdAt'
      | 'deadline'
      | 'commands'
      | 'consoleUrl'
    >();
    // An elicitation's record names the fields answered, never their values.
    expectTypeOf<keyof ElicitationRecord>().toEqualTypeOf<
      'id' | 'server' | 'message' | 'mode' | 'fields' | 'action' | 'answeredBy'
    >();
    expectTypeOf<ElicitationAnswer['action']>().toEqualTypeOf<'accept' | 'decline' | 'cancel'>();
    expectTypeOf<Extract<SessionEvent, { type: 'finish' }>>().toEqualTypeOf<{
      type: 'finish';
      result: ExecutionResult;
    }>();
  });

  it('AgentSession and AgentBackend methods', () => {
    expectTypeOf<AgentSession['send']>().toEqualTypeOf<
      (message: string, options?: TurnOptions) => Promise<ExecutionResult>
    >();
    expectTypeOf<AgentSession['sendStreaming']>().toEqualTypeOf<
      (message: string, options?: TurnOptions) => AsyncIterable<SessionEvent>
    >();
    // Progress is the run's running totals, never one step's share (a listener compares, never adds).
    expectTypeOf<keyof RunProgress>().toEqualTypeOf<
      'token_usage' | 'messages' | 'tool_calls' | 'cost_usd' | 'wants_next_message'
    >();
    expectTypeOf<TurnOptions>().toEqualTypeOf<{ onProgress?: ProgressListener; signal?: AbortSignal }>();
    expectTypeOf<InvokeOptions['onProgress']>().toEqualTypeOf<ProgressListener | undefined>();
    expectTypeOf<AgentBackend['invokeOnce']>().parameter(0).toEqualTypeOf<string>();
    expectTypeOf<AgentBackend['createSession']>().returns.toEqualTypeOf<Promise<AgentSession>>();
    expectTypeOf<AgentSession['reset']>().toEqualTypeOf<() => Promise<void>>();
    expectTypeOf<AgentSession['interrupt']>().toEqualTypeOf<() => Promise<void>>();
  });

  it('BackendProfile and BackendOptions', () => {
    expectTypeOf<BackendOptions>().toEqualTypeOf<{
      prewarm?: { runs: number; concurrency: number };
      maxProcesses?: number;
      modelTraffic?: ModelTraffic;
    }>();
    expectTypeOf<keyof ModelTraffic>().toEqualTypeOf<
      'fetch' | 'embeddingsFetch' | 'routeFor' | 'wrapTools'
    >();
    expectTypeOf<keyof BackendProfile>().toEqualTypeOf<
      | 'name'
      | 'agentProcesses'
      | 'unknownCostReason'
      | 'isolationLevels'
      | 'checkConfig'
      | 'credentialWarnings'
      | 'toolNames'
      | 'sideEffects'
    >();
    expectTypeOf<BackendProfile['checkConfig']>().returns.toEqualTypeOf<Promise<BackendChecks>>();
    expectTypeOf<BackendProfile['toolNames']>().returns.toEqualTypeOf<AgentToolNames>();
  });
});

describe('the governance summary of a run', () => {
  /**
   * Proves `verdicts` stay the judge's when the audit also holds refusals of other sources (issue
   * 14): the gate's refusal of an unmapped call, a call the agent's permission rules refused, and
   * the gate's note on a passed write that a kill stored before its release stopped. Each of
   * those is a refusal; the pass stays the judge's pass.
   */
  it("reports the judge's verdicts, and refusals of the gate and permissions apart", async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'holodeck-summary-'));
    const store = await openSqliteStore(path.join(directory, 'novarch.db'));
    try {
      const engine = new NovarchEngine({ store, rules: [], holdWindowSeconds: 60 });
      const record = await engine.openSession({ tenantId: 't', teamId: 'cs', agentId: 'bot' });
      const call = (toolName: string, actionType: string) => ({
        actionType,
        toolName,
        input: {},
        context: { recordId: 'r', summary: toolName },
      });
      const citations = (rationale: string) => ({ ruleIds: [], evidenceIds: [], rationale });
      await store.recordRefusal({
        sessionId: record.id,
        source: 'gate',
        call: call('Bash', 'tool_call'),
        citations: citations('tool "Bash" is not mapped to read or write, so it may not run'),
      });
      await store.recordRefusal({
        sessionId: record.id,
        source: 'permissions',
        call: call('lookup', 'tool_call'),
        citations: citations('the call did not run'),
      });
      const refund = await store.recordAction({ sessionId: record.id, ...call('refund', 'issue_refund') });
      await store.killSession(record.id, 'operator ana: stop');
      const pass = {
        kind: 'pass' as const,
        citations: { ...citations('TEAM-1 satisfied'), ruleIds: ['TEAM-1'] },
      };
      expect(
        (await store.releaseAction({ actionId: refund.id, sessionId: record.id, verdict: pass })).released,
      ).toBe(false);
      expect(await summariseSession({ engine, record }, true)).toEqual({
        session_id: record.id,
        killed: true,
        verdicts: [
          {
            tool: 'refund',
            action_type: 'issue_refund',
            verdict: 'pass',
            rule_ids: ['TEAM-1'],
            rationale: 'TEAM-1 satisfied',
          },
        ],
        refusals: [
          {
            tool: 'Bash',
            action_type: 'tool_call',
            source: 'gate',
            rationale: 'tool "Bash" is not mapped to read or write, so it may not run',
          },
          {
            tool: 'lookup',
            action_type: 'tool_call',
            source: 'permissions',
            rationale: 'the call did not run',
          },
          {
            tool: 'refund',
            action_type: 'issue_refund',
            source: 'gate',
            rationale:
              'the session was stopped before this write could run (operator ana: stop); it did not run',
          },
        ],
      });
    } finally {
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
