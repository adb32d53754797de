import { describe, expect, it } from 'vitest';
import { OptimizeConfigSchema } from '../../../src/config/index.js';
import type { Evaluation } from '../../../src/optimize/evaluation.js';
import { judgeCandidate } from '../../../src/optimize/judge-candidate.js';
import { planMoves } from '../../../src/optimize/plan-moves.js';
import { splitCases } from '../../../src/optimize/split-cases.js';

function evaluation(passes: number[], extra: Partial<Evaluation> = {}): Evaluation {
  const cases = passes.map((count, index) => ({
    name: `c${index}`,
    passes: count,
    attempts: 3,
    passed: count === 3,
    errored: false,
  }));
  const total = passes.reduce((sum, count) => sum + count, 0);
  return {
    split: 'train',
    run_id: 'r',
    cases,
    pass_rate: total / (3 * passes.length),
    cost_usd: 0.1,
    kills: 0,
    holds: 0,
    unrecorded: 0,
    interrupted: false,
    failures: [],
    ...extra,
  };
}

const options = { required: [] as string[], confidence: 0.95, seed: 0 };

describe('splitCases', () => {
  const cases = [
    ...Array.from({ length: 6 }, (_, i) => ({ name: `a${i}`, tags: ['billing'] })),
    ...Array.from({ length: 4 }, (_, i) => ({ name: `b${i}`, tags: ['shipping'] })),
    { name: 'untagged' },
  ];

  it('holds out round(n × fraction) of every tag set, the same for the same seed', () => {
    const split = splitCases(cases, 0.5, 7);
    expect(split.holdout.filter((name) => name.startsWith('a'))).toHaveLength(3);
    expect(split.holdout.filter((name) => name.startsWith('b'))).toHaveLength(2);
    expect(split.train).toHaveLength(11 - split.holdout.length);
    expect(splitCases(cases, 0.5, 7)).toEqual(split);
    const others = [1, 2, 3, 4].map((seed) => splitCases(cases, 0.5, seed).holdout.join());
    expect(new Set(others).size).toBeGreaterThan(1);
  });

  it('never holds out every case, and holds out none at 0', () => {
    expect(splitCases([{ name: 'x' }, { name: 'y' }], 0.8, 0).train).toHaveLength(1);
    expect(splitCases(cases, 0, 0).holdout).toEqual([]);
  });
});

describe('judgeCandidate', () => {
  it('accepts a gain whose interval excludes zero', () => {
    const decision = judgeCandidate(evaluation([0, 0, 0, 1, 3, 0]), evaluation([3, 3, 3, 3, 3, 2]), options);
    expect(decision).toMatchObject({ accepted: true, code: 'better' });
    expect(decision.improvement.lower).toBeGreaterThan(0);
  });

  it('rejects a gain on one case as noise: its interval includes zero', () => {
    const decision = judgeCandidate(evaluation([3, 0, 0, 0, 0, 0]), evaluation([3, 2, 0, 0, 0, 0]), options);
    expect(decision.code).toBe('noise');
    expect(decision.message).toMatch(/the interval does not exclude zero$/);
  });

  it('rejects a candidate with more Novarch kills or holds, whatever its gain', () => {
    const decision = judgeCandidate(
      evaluation([0, 0, 0, 0]),
      evaluation([3, 3, 3, 3], { kills: 1 }),
      options,
    );
    expect(decision).toMatchObject({ accepted: false, code: 'governance' });
    expect(decision.message).toBe('Novarch kills 0 → 1, holds 0 → 0: a candidate may not add either');
    expect(judgeCandidate(evaluation([0, 0]), evaluation([3, 3], { holds: 2 }), options).code).toBe(
      'governance',
    );
  });

  it('names the kill, not the error, when Novarch killed a run (a killed run ends as an errored case)', () => {
    const killed = evaluation([3, 0], { kills: 1 });
    killed.cases[1] = { ...(killed.cases[1] as Evaluation['cases'][number]), errored: true };
    expect(judgeCandidate(evaluation([3, 0]), killed, options)).toMatchObject({
      accepted: false,
      code: 'governance',
      message: 'Novarch kills 0 → 1, holds 0 → 0: a candidate may not add either',
    });
  });

  it('rejects a candidate that breaks a required case that passed before', () => {
    const best = evaluation([3, 0, 0, 0, 0]);
    const candidate = evaluation([2, 3, 3, 3, 3]);
    expect(judgeCandidate(best, candidate, { ...options, required: ['c0'] })).toMatchObject({
      code: 'required',
      message: 'breaks required case(s): c0',
    });
    expect(judgeCandidate(best, candidate, { ...options, required: 'all' }).code).toBe('required');
    expect(judgeCandidate(best, candidate, options).code).toBe('better');
  });

  it('rejects unrecorded, errored and interrupted candidates', () => {
    const best = evaluation([0, 0]);
    expect(judgeCandidate(best, evaluation([3, 3], { unrecorded: 2 }), options).message).toBe(
      '2 request(s) had no recording: not run live; record them with --replay --record-missing',
    );
    const errored = evaluation([3, 3]);
    errored.cases[1] = { ...(errored.cases[1] as Evaluation['cases'][number]), errored: true };
    expect(judgeCandidate(best, errored, options)).toMatchObject({
      code: 'errored',
      message: 'case(s) errored: c1',
    });
    expect(judgeCandidate(best, evaluation([3, 3], { interrupted: true }), options).code).toBe('interrupted');
  });

  it('accepts the same passes everywhere at a lower cost as cheaper, and calls a loss worse', () => {
    expect(judgeCandidate(evaluation([3, 1]), evaluation([3, 1], { cost_usd: 0.05 }), options).code).toBe(
      'cheaper',
    );
    expect(judgeCandidate(evaluation([3, 3, 3]), evaluation([0, 0, 0]), options).code).toBe('worse');
  });
});

describe('planMoves', () => {
  it('goes round the axes in order, one value of each enumerated axis a round, proposals every round', () => {
    const config = OptimizeConfigSchema.parse({
      axes: ['temperature', 'instructions', 'model'],
      temperatures: [0, 0.5],
      models: ['small'],
    });
    expect(planMoves(config, 6)).toEqual([
      { kind: 'set', axis: 'temperature', changes: { temperature: 0 } },
      { kind: 'propose' },
      { kind: 'set', axis: 'model', changes: { model: 'small' } },
      { kind: 'set', axis: 'temperature', changes: { temperature: 0.5 } },
      { kind: 'propose' },
      { kind: 'propose' },
    ]);
  });

  it('ends when the enumerated values run out and nothing proposes', () => {
    const config = OptimizeConfigSchema.parse({ axes: ['max_turns'], max_turns_values: [3, 6] });
    expect(planMoves(config, 10)).toHaveLength(2);
  });
});
