import { describe, expect, it } from 'vitest';
import { MAX_TURNS_REASON } from '../../../src/backends/ai-sdk/build-execution-result.js';
import { mapResultSubtype } from '../../../src/backends/claude/map-result-subtype.js';
import { type ExecutionResult, emptyTokenUsage } from '../../../src/execution-result.js';
import { LIMIT_REASONS, turnOutcome } from '../../../src/serve/turn-outcome.js';

// The outcome a served turn is counted under in holodeck.serve.turns.
function result(fields: Partial<ExecutionResult> = {}): ExecutionResult {
  return {
    response: 'ok',
    tool_calls: [],
    tool_results: [],
    token_usage: emptyTokenUsage(),
    num_turns: 1,
    is_error: false,
    cost_usd: 0,
    duration_ms: 1,
    ...fields,
  };
}

describe('turnOutcome', () => {
  it('ok, error, and limit for a run stopped at max_turns or its budget', () => {
    expect(turnOutcome(result(), undefined)).toBe('ok');
    expect(turnOutcome(result({ is_error: true, error_reason: 'HTTP 500' }), undefined)).toBe('error');
    expect(turnOutcome(undefined, undefined)).toBe('error');
    expect(turnOutcome(result({ is_error: true, error_reason: 'max_turns limit reached' }), undefined)).toBe(
      'limit',
    );
    expect(
      turnOutcome(result({ is_error: true, error_reason: 'maximum budget (USD) reached' }), undefined),
    ).toBe('limit');
  });

  it("serve's own stop names a failed turn's outcome; a turn that answered anyway is ok", () => {
    const stopped = result({ is_error: true, error_reason: 'the user interrupted the turn' });
    expect(turnOutcome(stopped, 'interrupted')).toBe('interrupted');
    expect(turnOutcome(stopped, 'limit')).toBe('limit');
    expect(turnOutcome(undefined, 'interrupted')).toBe('interrupted');
    expect(turnOutcome(result(), 'limit')).toBe('ok');
  });

  it('knows the limit reasons as both backends word them', () => {
    expect(LIMIT_REASONS).toContain(MAX_TURNS_REASON);
    for (const subtype of ['error_max_turns', 'error_max_budget_usd'] as const)
      expect(LIMIT_REASONS).toContain(
        mapResultSubtype({ subtype, is_error: true } as Parameters<typeof mapResultSubtype>[0]),
      );
  });
});
