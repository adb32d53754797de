import { describe, expect, it } from 'vitest';
import type { RunProgress } from '../../../src/backends/contract/index.js';
import { emptyTokenUsage } from '../../../src/backends/contract/index.js';
import { AttemptLimitMeter, type LimitReachedError } from '../../../src/runner/attempt-limits.js';

// The meter of `limits:`: it compares each run's running totals (never adds them up), banks a
// finished turn's before the next, and stops at the first limit crossed, once.

function progress(tokens: number, extra: Partial<RunProgress> = {}): RunProgress {
  return {
    token_usage: { ...emptyTokenUsage(), prompt_tokens: tokens, total_tokens: tokens },
    messages: 1,
    tool_calls: 0,
    cost_usd: 0,
    wants_next_message: false,
    ...extra,
  };
}

function meter(limits: ConstructorParameters<typeof AttemptLimitMeter>[0]) {
  const stops: LimitReachedError[] = [];
  const limited = new AttemptLimitMeter(limits, (reason) => stops.push(reason));
  return { limited, stops };
}

describe('AttemptLimitMeter', () => {
  it('compares running totals: three reports of one growing run are not added up', () => {
    const { limited, stops } = meter({ tokens: 1000 });
    for (const tokens of [400, 700, 900]) limited.onProgress(progress(tokens));
    expect(stops).toEqual([]);
    expect(limited.totals().token_usage.total_tokens).toBe(900);
    limited.onProgress(progress(1001));
    expect(stops.map((stop) => stop.message)).toEqual(['tokens limit 1000 reached (1001)']);
    expect(limited.stop).toEqual({
      limit: 'tokens',
      max: 1000,
      reached: 1001,
      reason: 'stopped: tokens limit 1000 reached (1001)',
    });
    // Stopped once: later progress (the run winding down) stops nothing more.
    limited.onProgress(progress(1500));
    expect(stops).toHaveLength(1);
  });

  it("adds a conversation's turns: each turn's totals start from zero", () => {
    const { limited, stops } = meter({ tool_calls: 2, cost: 0.05 });
    limited.onProgress(progress(100, { tool_calls: 2, cost_usd: 0.02 }));
    limited.turnEnded();
    limited.onProgress(progress(100, { tool_calls: 0, cost_usd: 0.02 }));
    expect(stops).toEqual([]);
    expect(limited.totals()).toMatchObject({ tool_calls: 2, messages: 2, cost_usd: 0.04 });
    limited.onProgress(progress(100, { tool_calls: 1, cost_usd: 0.02 }));
    expect(limited.stop?.reason).toBe('stopped: tool_calls limit 2 reached (3)');
  });

  it('stops at the last allowed message when it calls tools, before the model is asked again', () => {
    const { limited } = meter({ messages: 2 });
    limited.onProgress(progress(10, { messages: 2 }));
    expect(limited.stop).toBeUndefined();
    limited.onProgress(progress(10, { messages: 2, tool_calls: 1, wants_next_message: true }));
    expect(limited.stop?.reason).toBe(
      'stopped: messages limit 2 reached (2, the last calling tools, so the agent wanted another)',
    );
  });

  it('shows dollars as dollars', () => {
    const { limited } = meter({ cost: 0.01 });
    limited.onProgress(progress(10, { cost_usd: 0.0123456 }));
    expect(limited.stop?.reason).toBe('stopped: cost limit $0.01 reached ($0.01235)');
  });
});
