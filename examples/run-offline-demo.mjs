#!/usr/bin/env node
// Runs the customer-support example fully offline: a local fake Anthropic API (from
// @holodeck/testkit) plays the model and the judge (see customer-support/offline-model.mjs),
// so the real Claude Code CLI, the real function tool and HoloDeck's whole runtime run without
// a network or an API key. With `openai-support` first, the same for the OpenAI example: a fake
// OpenAI-compatible API plays gpt-4o-mini and its judge (openai-support/offline-model.mjs), and
// the agent runs in-process on the AI SDK.
//
//   npm run demo                       # holodeck chat examples/customer-support/agent.yaml -p "..."
//   npm run demo -- --json             # the whole ExecutionResult
//   npm run demo:test                  # holodeck test examples/customer-support/agent.yaml
//   npm run demo:test -- --output report.xml
//   npm run demo:openai                # node examples/run-offline-demo.mjs openai-support chat
//   npm run demo:openai:test           # node examples/run-offline-demo.mjs openai-support test
//   npm run demo:docs                  # docs-assistant: retrieval tools over documents and a CSV FAQ,
//   npm run demo:docs -- ingest        #   a fake OpenAI-compatible API serving the embeddings
//   npm run demo:docs -- test
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chatRespond, respond, startFakeAnthropic, startFakeOpenAI } from '@holodeck/testkit';
import { offlineModel } from './customer-support/offline-model.mjs';
import { offlineDocsModel } from './docs-assistant/offline-model.mjs';
import { offlineOpenAIModel } from './openai-support/offline-model.mjs';

const OFFLINE_KEY = 'offline-demo-key';
/** Each example's fake model server, and the variables that point the agent at it. */
const EXAMPLES = {
  'customer-support': async () => {
    const model = await startFakeAnthropic({ steps: [respond(offlineModel)], repeatLast: true });
    return { model, env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: OFFLINE_KEY } };
  },
  'openai-support': async () => {
    // Every request (the agent's and the judge's) is answered by offlineOpenAIModel.
    const model = await startFakeOpenAI({ fallback: chatRespond(offlineOpenAIModel), apiKey: OFFLINE_KEY });
    return { model, env: { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: OFFLINE_KEY } };
  },
  'docs-assistant': async () => {
    // The model and judge (docs-assistant/offline-model.mjs), and the embeddings of the retrieval
    // tools: deterministic vectors where texts that share words are close.
    const model = await startFakeAnthropic({ steps: [respond(offlineDocsModel)], repeatLast: true });
    const embeddings = await startFakeOpenAI({ embeddingDimensions: 384, apiKey: OFFLINE_KEY });
    return {
      model,
      prompt: 'How long do I have to submit expenses?',
      close: () => embeddings.close(),
      env: {
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: OFFLINE_KEY,
        OPENAI_BASE_URL: embeddings.baseUrl,
        OPENAI_API_KEY: OFFLINE_KEY,
        EMBEDDING_MODEL: 'offline-fake-embedding',
      },
    };
  },
};

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const argv = process.argv.slice(2);
const example = Object.hasOwn(EXAMPLES, argv[0] ?? '') ? argv.shift() : 'customer-support';
const agentFile = path.join(root, `examples/${example}/agent.yaml`);
const [mode = 'chat', ...rest] = argv;
const { model, env, close, prompt = 'Where is my order A-1001?' } = await EXAMPLES[example]();
const args =
  mode === 'test' || mode === 'ingest'
    ? [mode, agentFile, ...rest]
    : ['chat', agentFile, '-p', prompt, ...rest];
const shown =
  mode === 'test' || mode === 'ingest'
    ? `holodeck ${mode} examples/${example}/agent.yaml`
    : `holodeck chat examples/${example}/agent.yaml -p "${prompt}"`;
console.error(`$ ${shown} ${rest.join(' ')}  (model: offline fake at ${model.url})`);
// A fresh HOME, so no Claude settings of the user's leak in; removed when the demo ends.
const home = mkdtempSync(path.join(tmpdir(), 'holodeck-demo-home-'));
const child = spawn(process.execPath, [path.join(root, 'packages/holodeck/bin/holodeck.js'), ...args], {
  stdio: 'inherit',
  env: {
    ...process.env,
    HOME: home,
    ...env,
  },
});
const code = await new Promise((resolve) => child.on('close', resolve));
await model.close();
await close?.();
rmSync(home, { recursive: true, force: true });
process.exitCode = code ?? 1;
