#!/usr/bin/env node
// Runs the customer-support example fully offline: a local fake Anthropic API (from
// @holodeck/testkit) plays the model and the judge (see customer-support/offline-model.mjs),
// so the real Claude Code CLI, the real function tool and HoloDeck's whole runtime run without
// a network or an API key.
//
//   npm run demo                       # holodeck chat examples/customer-support/agent.yaml -p "..."
//   npm run demo -- --json             # the whole ExecutionResult
//   npm run demo:test                  # holodeck test examples/customer-support/agent.yaml
//   npm run demo:test -- --output report.xml
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { respond, startFakeAnthropic } from '@holodeck/testkit';
import { offlineModel } from './customer-support/offline-model.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const agentFile = path.join(root, 'examples/customer-support/agent.yaml');
const [mode = 'chat', ...rest] = process.argv.slice(2);
const prompt = 'Where is my order A-1001?';
const args = mode === 'test' ? ['test', agentFile, ...rest] : ['chat', agentFile, '-p', prompt, ...rest];

const model = await startFakeAnthropic({ steps: [respond(offlineModel)], repeatLast: true });
const shown =
  mode === 'test'
    ? 'holodeck test examples/customer-support/agent.yaml'
    : `holodeck chat examples/customer-support/agent.yaml -p "${prompt}"`;
console.error(`$ ${shown} ${rest.join(' ')}  (model: offline fake at ${model.url})`);
// A fresh HOME, so no Claude settings of the user's leak in; removed when the demo ends.
const home = mkdtempSync(path.join(tmpdir(), 'holodeck-demo-home-'));
const child = spawn(process.execPath, [path.join(root, 'packages/holodeck/bin/holodeck.js'), ...args], {
  stdio: 'inherit',
  env: {
    ...process.env,
    HOME: home,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'offline-demo-key',
  },
});
const code = await new Promise((resolve) => child.on('close', resolve));
await model.close();
rmSync(home, { recursive: true, force: true });
process.exitCode = code ?? 1;
