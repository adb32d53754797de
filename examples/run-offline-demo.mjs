#!/usr/bin/env node
// Runs `holodeck chat examples/customer-support/agent.yaml -p "..."` fully offline: a local fake
// Anthropic API (from @holodeck/testkit) plays the model, so the real Claude Code CLI, the real
// function tool and HoloDeck's whole runtime run without a network or an API key.
//
//   npm run demo                      # the scripted conversation below
//   npm run demo -- --json            # print the whole ExecutionResult
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reply, respond, startFakeAnthropic, toolResults, toolUse } from '@holodeck/testkit';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const agentFile = path.join(root, 'examples/customer-support/agent.yaml');
const prompt = 'Where is my order A-1001?';

// The fake model asks for the order, then answers from whatever the real tool returned.
const model = await startFakeAnthropic({
  steps: [
    toolUse('mcp__holodeck_tools__lookup_order', { order_id: 'A-1001' }, { text: 'Let me look that up.' }),
    respond((request) => {
      const order = JSON.parse(toolResults(request)[0]?.text.split('<system-reminder>')[0] ?? '{}');
      return reply(
        `Your order ${order.order_id} has ${order.status} with ${order.carrier}; the total was $${order.total}.`,
      );
    }),
  ],
});

const args = [
  path.join(root, 'packages/holodeck/bin/holodeck.js'),
  'chat',
  agentFile,
  '-p',
  prompt,
  ...process.argv.slice(2),
];
console.error(
  `$ holodeck chat examples/customer-support/agent.yaml -p "${prompt}"   (model: offline fake at ${model.url})`,
);
const child = spawn(process.execPath, args, {
  stdio: 'inherit',
  env: {
    ...process.env,
    HOME: mkdtempSync(path.join(tmpdir(), 'holodeck-demo-home-')),
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'offline-demo-key',
  },
});
const code = await new Promise((resolve) => child.on('close', resolve));
await model.close();
process.exitCode = code ?? 1;
