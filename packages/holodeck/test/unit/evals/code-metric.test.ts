import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCodeMetric, loadGrader } from '../../../src/evals/code/code-metric.js';
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
const config = (fn: string, threshold = 0.5) => ({ type: 'code' as const, file, function: fn, threshold });

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
