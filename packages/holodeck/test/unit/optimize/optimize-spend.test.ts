import { describe, expect, it } from 'vitest';
import { evaluationOf, spendOf } from '../../../src/optimize/evaluation.js';
import { TrialsLineSchema } from '../../../src/optimize/trials-file.js';
import type { RunReport } from '../../../src/runner/report/run-report.js';

// The optimizer's max_cost bounds what its runs spent: the agent's calls and the judges' alike.

function report(summary: { cost_usd: number | null; judge_cost_usd?: number | null }): RunReport {
  return { run_id: 'r1', cases: [], summary } as unknown as RunReport;
}

describe('what an optimizer evaluation spent', () => {
  it('counts the judge calls of its runs beside the agent calls', () => {
    const evaluation = evaluationOf(report({ cost_usd: 0.25, judge_cost_usd: 0.125 }), 'train', 0);
    expect(evaluation.judge_cost_usd).toBe(0.125);
    expect(spendOf(evaluation)).toBe(0.375);
  });

  it('counts what is known when a price is not, and reads trials saved before judges were counted', () => {
    expect(spendOf(evaluationOf(report({ cost_usd: 0.25, judge_cost_usd: null }), 'train', 0))).toBe(0.25);
    const old = evaluationOf(report({ cost_usd: 0.25 }), 'train', 0);
    expect('judge_cost_usd' in old).toBe(false);
    expect(spendOf(old)).toBe(0.25);
  });

  it('keeps the judge spend of a saved holdout line, so --resume counts it again', () => {
    const evaluation = evaluationOf(report({ cost_usd: 0.5, judge_cost_usd: 0.25 }), 'holdout', 0);
    const interval = { estimate: 0, lower: 0, upper: 0, confidence: 0.95, method: 'wilson' };
    const parsed = TrialsLineSchema.safeParse({
      type: 'holdout',
      winner: 'c1',
      baseline: evaluation,
      candidate: evaluation,
      improvement: interval,
      agrees: true,
      message: 'ok',
    });
    expect(parsed.error).toBeUndefined();
    expect(parsed.data?.type === 'holdout' && spendOf(parsed.data.candidate)).toBe(0.75);
  });
});
