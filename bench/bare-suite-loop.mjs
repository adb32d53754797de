// @ts-check
// Shared by the bare baselines of bench/test-runner.mjs (bare-test-loop.mjs, bare-ai-sdk-loop.mjs):
// a suite of single-turn cases run through a bare SDK call, N at a time (a simple promise pool),
// each answer graded like `metrics: [{type: contains, value}]`, one line per case and a last line
// "<name>: P/N passed" that the bench checks. Sets the exit code: 1 if any case failed.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

/** The flags both loops take; `defaults` fills in the model and anything else per SDK. */
/** @returns {{ cases: number, concurrency: number, expect: string, system: string, model: string, [option: string]: any }} */
export function parseLoopOptions(name, defaults, extraOptions = {}) {
  const { values } = parseArgs({
    options: {
      cases: { type: 'string', default: '20' },
      concurrency: { type: 'string', default: '4' },
      expect: { type: 'string', default: 'answer' },
      system: { type: 'string', default: 'You are the benchmark agent. Answer briefly.' },
      model: { type: 'string', default: defaults.model },
      ...extraOptions,
    },
  });
  const cases = Number(values.cases);
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(cases) || cases < 1 || !Number.isInteger(concurrency) || concurrency < 1) {
    process.stderr.write(`${name}: --cases and --concurrency must be integers >= 1\n`);
    process.exit(2);
  }
  return { ...values, cases, concurrency };
}

/** Runs `question 1` … `question N` through `answer(input)`, `concurrency` at a time, and reports. */
export async function runBareSuite({ name, cases: caseCount, concurrency, expect, answer }) {
  const cases = Array.from({ length: caseCount }, (_, index) => ({
    name: `case-${index + 1}`,
    input: `question ${index + 1}`,
  }));

  async function runCase(testCase) {
    const startedAt = performance.now();
    try {
      const text = await answer(testCase.input);
      const passed = text.includes(expect);
      return {
        ...testCase,
        passed,
        ms: performance.now() - startedAt,
        ...(passed ? {} : { error: `answer "${text}" lacks "${expect}"` }),
      };
    } catch (error) {
      return {
        ...testCase,
        passed: false,
        ms: performance.now() - startedAt,
        error: error instanceof Error ? error.message : String(error),
      };
    }
  }

  // A promise pool: `concurrency` workers take the next case until none is left.
  const results = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, cases.length) }, async () => {
      while (next < cases.length) {
        const testCase = cases[next++];
        results.push(await runCase(testCase));
      }
    }),
  );

  const failed = results.filter((result) => !result.passed);
  for (const result of results) {
    process.stdout.write(
      `${result.passed ? 'PASS' : 'FAIL'}  ${result.name}  (${(result.ms / 1000).toFixed(1)} s)${result.error ? `  ${result.error}` : ''}\n`,
    );
  }
  process.stdout.write(`${name}: ${results.length - failed.length}/${results.length} passed\n`);
  process.exitCode = failed.length ? 1 : 0;
}
