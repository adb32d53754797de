#!/usr/bin/env node
// The baseline of bench/test-runner.mjs: a test suite run as a bare loop of Claude Agent SDK
// query() calls, N at a time (a simple promise pool), with the options HoloDeck passes that
// affect cost (see bare-sdk-query.mjs) and no HoloDeck code. Each case is one fresh CLI process,
// like `holodeck test --isolation process` without pre-warming. Checks every answer the way the
// suite's `contains` metric does; exits 1 if any case failed.
//
//   ANTHROPIC_API_KEY=... ANTHROPIC_BASE_URL=... node bench/bare-test-loop.mjs \
//     [--cases 20] [--concurrency 4] [--expect answer] [--system "instructions"] \
//     [--model claude-sonnet-4-6] [--cwd dir]
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { bareCliEnv, runBareQuery } from './bare-sdk-query.mjs';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '4' },
    expect: { type: 'string', default: 'answer' },
    system: { type: 'string', default: 'You are the benchmark agent. Answer briefly.' },
    model: { type: 'string', default: 'claude-sonnet-4-6' },
    cwd: { type: 'string', default: process.cwd() },
  },
});
const caseCount = Number(values.cases);
const concurrency = Number(values.concurrency);
if (!Number.isInteger(caseCount) || caseCount < 1 || !Number.isInteger(concurrency) || concurrency < 1) {
  process.stderr.write('bare-test-loop: --cases and --concurrency must be integers >= 1\n');
  process.exit(2);
}

const env = { ...bareCliEnv(), CLAUDE_AGENT_SDK_CLIENT_APP: 'test-runner-bench/bare' };
const cases = Array.from({ length: caseCount }, (_, index) => ({
  name: `case-${index + 1}`,
  input: `question ${index + 1}`,
}));

/** One case: one query() read to its result, graded like `metrics: [{type: contains, value}]`. */
async function runCase(testCase) {
  const startedAt = performance.now();
  try {
    const text = await runBareQuery({
      prompt: testCase.input,
      systemPrompt: values.system,
      model: values.model,
      cwd: values.cwd,
      env,
    });
    const passed = text.includes(values.expect);
    return {
      ...testCase,
      passed,
      ms: performance.now() - startedAt,
      ...(passed ? {} : { error: `answer "${text}" lacks "${values.expect}"` }),
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
process.stdout.write(`bare-test-loop: ${results.length - failed.length}/${results.length} passed\n`);
process.exitCode = failed.length ? 1 : 0;
