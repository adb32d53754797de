#!/usr/bin/env node
// @ts-check
// The baseline of bench/test-runner.mjs: a test suite run as a bare loop of Claude Agent SDK
// query() calls, N at a time (bare-suite-loop.mjs), with the options HoloDeck passes that
// affect cost (see bare-sdk-query.mjs) and no HoloDeck code. Each case is one fresh CLI process,
// like `holodeck test --isolation process` without pre-warming. Checks every answer the way the
// suite's `contains` metric does; exits 1 if any case failed.
//
//   ANTHROPIC_API_KEY=... ANTHROPIC_BASE_URL=... node bench/bare-test-loop.mjs \
//     [--cases 20] [--concurrency 4] [--expect answer] [--system "instructions"] \
//     [--model claude-sonnet-4-6] [--cwd dir]
import { bareCliEnv, runBareQuery } from './bare-sdk-query.mjs';
import { parseLoopOptions, runBareSuite } from './bare-suite-loop.mjs';

const name = 'bare-test-loop';
const options = parseLoopOptions(
  name,
  { model: 'claude-sonnet-4-6' },
  { cwd: { type: 'string', default: process.cwd() } },
);
const env = { ...bareCliEnv(), CLAUDE_AGENT_SDK_CLIENT_APP: 'test-runner-bench/bare' };
await runBareSuite({
  name,
  ...options,
  answer: (prompt) =>
    runBareQuery({ prompt, systemPrompt: options.system, model: options.model, cwd: options.cwd, env }),
});
