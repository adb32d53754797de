import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANTHROPIC_PRICE_TABLE } from '../../../src/backends/pricing/anthropic-price-table.js';
import type { GradingCall } from '../../../src/evals/metric.js';
import { summarise } from '../../../src/runner/build-case-report.js';
import { GradingMeter } from '../../../src/runner/grading-meter.js';
import { UNCOUNTED_JUDGE_REASON } from '../../../src/runner/report/judge-totals.js';
import { attempt, testCase } from './report/report-builder.js';

const haiku = { kind: 'judge', provider: 'anthropic', model: 'claude-haiku-4-5' } as const;
const billed = (input: number, output: number, cacheRead = 0, cacheWrite = 0): GradingCall => ({
  ...haiku,
  cached: false,
  usage: {
    input_tokens: input,
    output_tokens: output,
    cache_read_tokens: cacheRead,
    cache_creation_tokens: cacheWrite,
    counting: 'cache-apart',
  },
});

describe('GradingMeter: what grading one attempt spent', () => {
  it('prices each billed call at its model, cache reads and writes apart; cached verdicts cost nothing', () => {
    const meter = new GradingMeter();
    meter.record(billed(1_000, 50, 200, 100));
    meter.record({ ...haiku, cached: true });
    meter.record({
      kind: 'embeddings',
      provider: 'openai',
      model: 'text-embedding-3-small',
      cached: false,
      usage: {
        input_tokens: 500,
        output_tokens: 0,
        cache_read_tokens: 0,
        cache_creation_tokens: 0,
        counting: 'cache-included',
      },
    });
    // 1000 × $1 + 200 × $0.10 + 100 × $1.25 + 50 × $5, and 500 × $0.02, per million.
    expect(meter.spend()).toEqual({
      judge_token_usage: {
        prompt_tokens: 1_500,
        completion_tokens: 50,
        total_tokens: 1_550,
        cache_read_tokens: 200,
        cache_creation_tokens: 100,
      },
      judge_cost_usd: 0.001405,
      judge_calls: { billed: 2, cached: 1 },
    });
  });

  it('is unknown, with the first reason, for a model without a price or an answer without usage; tokens still add up', () => {
    const unpriced = new GradingMeter();
    unpriced.record(billed(10, 1));
    unpriced.record({ ...billed(10, 1), model: 'claude-judge-test' });
    expect(unpriced.spend()).toMatchObject({
      judge_cost_usd: null,
      judge_cost_unknown_reason: `the price table (anthropic ${ANTHROPIC_PRICE_TABLE.version}) has no price for the judge model anthropic claude-judge-test`,
      judge_token_usage: { prompt_tokens: 20, completion_tokens: 2 },
      judge_calls: { billed: 2, cached: 0 },
    });
    const silent = new GradingMeter();
    silent.record({ ...haiku, cached: false });
    expect(silent.spend()).toMatchObject({
      judge_cost_usd: null,
      judge_cost_unknown_reason:
        'the judge API (anthropic claude-haiku-4-5) did not say how many tokens a call used',
    });
  });
});

describe("summarise: the run's judge totals", () => {
  it('are the sum over every attempt and every judge call, and total_cost_usd adds the agent cost', () => {
    const callArb = fc.oneof(
      fc
        .tuple(fc.nat(5_000), fc.nat(800), fc.nat(2_000), fc.nat(500))
        .map(([input, output, read, write]) => billed(input, output, read, write)),
      fc.constant<GradingCall>({ ...haiku, cached: true }),
    );
    const attemptArb = fc.record({
      cost: fc.integer({ min: 0, max: 10_000 }).map((micro) => micro / 1e6),
      calls: fc.array(callArb, { maxLength: 6 }),
    });
    fc.assert(
      fc.property(
        fc.array(fc.array(attemptArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }),
        (cases) => {
          const allCalls = cases.flat().flatMap((entry) => entry.calls);
          const reports = cases.map((attempts, index) =>
            testCase(
              `case-${index}`,
              attempts.map((entry, number) => {
                const meter = new GradingMeter();
                for (const call of entry.calls) meter.record(call);
                return attempt({ attempt: number + 1, cost_usd: entry.cost, ...meter.spend() });
              }),
            ),
          );
          const summary = summarise(reports, 1_000);
          const everyCall = new GradingMeter();
          for (const call of allCalls) everyCall.record(call);
          const direct = everyCall.spend();
          expect(summary.judge_calls).toEqual(direct.judge_calls);
          expect(summary.judge_token_usage).toEqual(direct.judge_token_usage);
          expect(summary.judge_cost_usd).toBeCloseTo(direct.judge_cost_usd ?? Number.NaN, 9);
          const attempts = reports.flatMap((entry) => entry.attempts);
          const perAttempt = attempts.reduce((sum, entry) => sum + (entry.judge_cost_usd ?? 0), 0);
          expect(summary.judge_cost_usd).toBeCloseTo(perAttempt, 9);
          const agent = attempts.reduce((sum, entry) => sum + (entry.cost_usd ?? 0), 0);
          expect(summary.total_cost_usd).toBeCloseTo(agent + perAttempt, 9);
        },
      ),
    );
  });

  it('are unknown when an attempt was saved before the judge was counted, or its judge cost is unknown', () => {
    const counted = attempt({ attempt: 1, judge_cost_usd: 0.001, judge_calls: { billed: 1, cached: 0 } });
    const old = attempt({ attempt: 2 });
    expect(summarise([testCase('a', [counted, old])], 1)).toMatchObject({
      cost_usd: 0.0126,
      judge_cost_usd: null,
      judge_cost_unknown_reason: UNCOUNTED_JUDGE_REASON,
      total_cost_usd: null,
    });
    const unknown = attempt({ attempt: 2, judge_cost_usd: null, judge_cost_unknown_reason: 'no price' });
    expect(summarise([testCase('a', [counted, unknown])], 1)).toMatchObject({
      judge_cost_usd: null,
      judge_cost_unknown_reason: 'no price',
      total_cost_usd: null,
    });
  });
});
