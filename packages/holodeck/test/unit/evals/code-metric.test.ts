import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MetricConfigSchema } from '../../../src/config/index.js';
import { createCodeMetric, type GraderOptions, loadGrader } from '../../../src/evals/code/code-metric.js';
import { metricInput } from './metric-input.js';

const dir = mkdtempSync(path.join(tmpdir(), 'graders-'));
const file = path.join(dir, 'graders.ts');
writeFileSync(
  file,
  `
import type {} from 'node:fs';
export const mentionsTotal = (input: { response: string }): boolean => input.response.includes('total');
export const half = (): number => 0.5;
export const detailed = (input: { toolCalls: unknown[] }) => ({ score: input.toolCalls.length ? 1 : 0, reason: 'counted tool calls' });
export const vetoed = () => ({ score: 0.9, passed: false, reason: 'vetoed' });
export const broken = () => { throw new Error('grader bug'); };
export const nonsense = () => 'yes';
`,
);
const config = (fn: string, threshold = 0.5, timeout = 30) => ({
  type: 'code' as const,
  file,
  function: fn,
  threshold,
  timeout,
});

async function grade(fn: string, threshold?: number) {
  const metric = createCodeMetric(config(fn, threshold), await loadGrader(config(fn)));
  return metric.evaluate(metricInput({ response: 'the total is 3' }), {});
}

describe('code metrics (TypeScript graders)', () => {
  it('accepts booleans, numbers and {score, passed, reason}', async () => {
    expect(await grade('mentionsTotal')).toMatchObject({ passed: true, score: 1 });
    expect(await grade('half', 0.6)).toMatchObject({ passed: false, score: 0.5, threshold: 0.6 });
    expect(await grade('detailed')).toMatchObject({ passed: false, score: 0, reason: 'counted tool calls' });
    expect(await grade('vetoed')).toMatchObject({ passed: false, score: 0.9, reason: 'vetoed' });
  });

  it('reports graders that throw or return nonsense as metric errors', async () => {
    expect(await grade('broken')).toMatchObject({ passed: false, error: 'grader broken threw: grader bug' });
    expect((await grade('nonsense')).error).toBe(
      'grader returned "yes"; expected a boolean, a number or {score, passed?, reason?}',
    );
  });

  it('names the exports when the function is missing', async () => {
    await expect(loadGrader(config('missing'))).rejects.toThrow(
      `${file} has no exported function "missing"; it exports broken, detailed, half, mentionsTotal, nonsense, vetoed`,
    );
  });
});

describe('code metrics: scores, time limit and signal', () => {
  const input = metricInput({ response: 'the total is 3' });

  it('reports a score outside [0, 1] as an error instead of clamping it', async () => {
    for (const [result, shown] of [
      [1.5, '1.5'],
      [-0.2, '-0.2'],
      [{ score: 2, reason: 'too generous' }, '2'],
      [Number.NaN, 'NaN'],
    ] as const) {
      const outcome = await createCodeMetric(config('g'), () => result).evaluate(input, {});
      expect(outcome).toEqual({
        name: 'code',
        type: 'code',
        score: 0,
        threshold: 0.5,
        passed: false,
        reason: `grader returned the score ${shown}; a score must be from 0 to 1`,
        error: `grader returned the score ${shown}; a score must be from 0 to 1`,
      });
    }
    expect(await createCodeMetric(config('g'), () => 1).evaluate(input, {})).toMatchObject({ score: 1 });
  });

  it('passes { signal } to the grader and stops it at its timeout', async () => {
    let seen: AbortSignal | undefined;
    const hang = (_input: unknown, options: GraderOptions) => {
      seen = options.signal;
      return new Promise<number>(() => {});
    };
    const outcome = await createCodeMetric(config('hang', 0.5, 0.05), hang).evaluate(input, {});
    expect(outcome).toMatchObject({ passed: false, error: 'grader hang timed out after 0.05 s' });
    expect(seen?.aborted).toBe(true);
  });

  it("rethrows the attempt's abort (case timeout, Ctrl+C) and aborts the grader's signal", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const hang = (_input: unknown, options: GraderOptions) => {
      seen = options.signal;
      setTimeout(() => controller.abort(new Error('timed out after 3 s')), 10);
      return new Promise<number>(() => {});
    };
    const metric = createCodeMetric(config('hang'), hang);
    await expect(metric.evaluate(input, { signal: controller.signal })).rejects.toThrow(
      'timed out after 3 s',
    );
    expect(seen?.aborted).toBe(true);
  });

  it('defaults timeout to 30 s and rejects one that is not above 0', () => {
    expect(MetricConfigSchema.parse({ type: 'code', file: 'g.ts' })).toMatchObject({ timeout: 30 });
    const result = MetricConfigSchema.safeParse({ type: 'code', file: 'g.ts', timeout: 0 });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'timeout is a number of seconds above 0',
    ]);
  });
});
