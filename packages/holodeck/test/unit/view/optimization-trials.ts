import path from 'node:path';
import type { Evaluation } from '../../../src/optimize/evaluation.js';
import { appendTrialsLine, type TrialsLine } from '../../../src/optimize/trials-file.js';

/** Text a model wrote, with markup in it: the pages must show it as text. */
export const PROPOSED = 'Be polite. <script>alert(1)</script> End with CONFIRMED.';
export const RATIONALE = 'Polite <b>answers</b> pass more cases.';
export const AS_WRITTEN = 'You are the support agent.';

/** An evaluation of 4 train cases: `passing` of them pass every one of 2 attempts. */
export function evaluation(passing: number, extra: Partial<Evaluation> = {}): Evaluation {
  const cases = ['order-1', 'order-2', 'refund-1', 'refund-2'].map((name, index) => ({
    name,
    passes: index < passing ? 2 : 0,
    attempts: 2,
    passed: index < passing,
    errored: false,
  }));
  return {
    split: 'train',
    run_id: `run-${passing}`,
    cases,
    pass_rate: passing / 4,
    cost_usd: 0.01 * passing + 0.01,
    kills: 0,
    holds: 0,
    unrecorded: 0,
    interrupted: false,
    failures: [],
    ...extra,
  };
}

const interval = (estimate: number, lower: number, upper: number) => ({
  estimate,
  lower,
  upper,
  confidence: 0.95,
  method: 'paired-bootstrap',
});

/** The lines of a finished optimization: noise, a kill, then a winner the holdout confirms. */
export function finishedOptimization(id: string): TrialsLine[] {
  const trial = (n: number, extra: Record<string, unknown>) =>
    ({
      type: 'trial',
      trial: n,
      move: n - 1,
      started_at: `2026-12-01T10:0${n}:00.000Z`,
      duration_ms: 1200,
      ...extra,
    }) as TrialsLine;
  return [
    {
      type: 'start',
      schema_version: 1,
      optimize_id: id,
      started_at: '2026-12-01T10:00:00.000Z',
      agent: { name: 'support', file: '/agents/support/agent.yaml', config_hash: 'sha256:aa' },
      baseline_instructions: AS_WRITTEN,
      split: {
        train: ['order-1', 'order-2', 'refund-1', 'refund-2'],
        holdout: ['order-3', 'refund-3'],
        seed: 0,
        fraction: 0.3,
      },
      settings: {
        axes: ['instructions', 'temperature'],
        repeats: 2,
        confidence: 0.95,
        max_trials: 5,
        max_cost_usd: 1,
        max_time_seconds: null,
        replay: false,
      },
    },
    trial(0, {
      candidate: { id: 't0', changes: {}, origin: 'baseline' },
      evaluation: evaluation(1),
      decision: null,
      best: 't0',
    }),
    trial(1, {
      candidate: {
        id: 't1',
        changes: { instructions: PROPOSED },
        origin: 'proposer',
        parent: 't0',
        rationale: RATIONALE,
      },
      evaluation: evaluation(2),
      proposer_cost_usd: 0.005,
      decision: {
        accepted: false,
        code: 'noise',
        message:
          'pass rate 25.0% → 50.0%, +25.0 pts [-12.5, +62.5] at 95%: the interval does not exclude zero',
        improvement: interval(0.25, -0.125, 0.625),
      },
      best: 't0',
    }),
    trial(2, {
      candidate: { id: 't2', changes: { temperature: 0.5 }, origin: 'temperature', parent: 't0' },
      evaluation: evaluation(1, { kills: 2 }),
      decision: {
        accepted: false,
        code: 'governance',
        message: 'Novarch kills 0 → 2, holds 0 → 0: a candidate may not add either',
        improvement: interval(0, 0, 0),
      },
      best: 't0',
    }),
    trial(3, {
      candidate: {
        id: 't3',
        changes: { instructions: `${AS_WRITTEN} End every answer with CONFIRMED.` },
        origin: 'proposer',
        parent: 't0',
      },
      evaluation: evaluation(4),
      proposer_cost_usd: 0.005,
      decision: {
        accepted: true,
        code: 'better',
        message: 'pass rate 25.0% → 100.0%, +75.0 pts [+50.0, +100.0] at 95%',
        improvement: interval(0.75, 0.5, 1),
      },
      best: 't3',
    }),
    {
      type: 'skip',
      move: 3,
      at: '2026-12-01T10:04:00.000Z',
      reason: 'the proposer failed: <i>timeout</i>',
      proposer_cost_usd: 0.001,
    },
    {
      type: 'holdout',
      winner: 't3',
      baseline: { ...evaluation(0), split: 'holdout', cases: evaluation(0).cases.slice(0, 2), pass_rate: 0 },
      candidate: { ...evaluation(2), split: 'holdout', cases: evaluation(2).cases.slice(0, 2), pass_rate: 1 },
      improvement: interval(1, 1, 1),
      agrees: true,
      message: 'the holdout agrees: holdout pass rate 0.0% → 100.0%',
    },
    {
      type: 'finish',
      finished_at: '2026-12-01T10:05:00.000Z',
      stopped: 'max-cost',
      winner: 't3',
      optimized_file: '/agents/support/agent.optimized.yaml',
    },
  ];
}

/** Writes the lines as `<agent folder>/.holodeck/optimize/<id>/trials.jsonl`. */
export async function writeOptimization(
  agentFolder: string,
  id: string,
  lines: readonly TrialsLine[],
): Promise<string> {
  const file = path.join(agentFolder, '.holodeck', 'optimize', id, 'trials.jsonl');
  for (const line of lines) await appendTrialsLine(file, line);
  return file;
}
