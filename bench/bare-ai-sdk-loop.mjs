#!/usr/bin/env node
// @ts-check
// The baseline of `bench/test-runner.mjs --provider openai`: a test suite run as a bare loop of AI
// SDK generateText() calls over OpenAI's Chat Completions API, N at a time (bare-suite-loop.mjs),
// with the options HoloDeck's AI SDK backend passes (see bare-ai-sdk-generate.mjs) and no HoloDeck
// code. One model instance serves every case, as one backend does in `holodeck test`. Checks every
// answer the way the suite's `contains` metric does; exits 1 if any case failed.
//
//   OPENAI_API_KEY=... OPENAI_BASE_URL=... node bench/bare-ai-sdk-loop.mjs \
//     [--cases 20] [--concurrency 4] [--expect answer] [--system "instructions"] [--model gpt-4o-mini]
import { bareChatModel, runBareGenerate } from './bare-ai-sdk-generate.mjs';
import { parseLoopOptions, runBareSuite } from './bare-suite-loop.mjs';

const name = 'bare-ai-sdk-loop';
const options = parseLoopOptions(name, { model: 'gpt-4o-mini' });
const model = bareChatModel({ model: options.model });
await runBareSuite({
  name,
  ...options,
  answer: (prompt) => runBareGenerate({ model, system: options.system, prompt }),
});
