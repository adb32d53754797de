#!/usr/bin/env node
// @ts-check
// The baseline of bench/chat-turn-latency.mjs: a bare Claude Agent SDK conversation on streaming
// input (one query(), one CLI process, one session for every turn), with the options HoloDeck
// passes that affect cost and no HoloDeck code. Each line of stdin is one user message; text
// deltas go to stdout as they stream, and a line `[turn-end]` follows each turn's result.
//
//   ANTHROPIC_API_KEY=... ANTHROPIC_BASE_URL=... node bench/bare-sdk-stream-input.mjs \
//     [--system "instructions"] [--model claude-sonnet-4-6] [--cwd dir]
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { bareCliEnv } from './bare-sdk-query.mjs';

const { values } = parseArgs({
  options: {
    system: { type: 'string', default: 'You are a helpful assistant.' },
    model: { type: 'string', default: 'claude-sonnet-4-6' },
    cwd: { type: 'string', default: process.cwd() },
  },
});

/**
 * The prompt: one user message per line of stdin, for as long as stdin stays open.
 * @returns {AsyncGenerator<import('@anthropic-ai/claude-agent-sdk').SDKUserMessage>}
 */
async function* userMessages() {
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    yield {
      type: 'user',
      message: { role: 'user', content: line },
      parent_tool_use_id: null,
      uuid: randomUUID(),
    };
  }
}

const run = query({
  prompt: userMessages(),
  options: {
    model: values.model,
    systemPrompt: values.system,
    tools: [],
    allowedTools: [],
    settingSources: [],
    strictMcpConfig: true,
    thinking: { type: 'disabled' },
    mcpServers: {},
    includePartialMessages: true,
    cwd: values.cwd,
    env: bareCliEnv(),
  },
});
await run.initializationResult();
process.stdout.write('[ready]\n');
for await (const message of run) {
  if (
    message.type === 'stream_event' &&
    message.event.type === 'content_block_delta' &&
    message.event.delta.type === 'text_delta'
  ) {
    process.stdout.write(message.event.delta.text);
  }
  if (message.type === 'result') {
    if (message.is_error) {
      process.stderr.write(`bare stream-input: turn failed (${message.subtype})\n`);
      process.exit(1);
    }
    process.stdout.write('\n[turn-end]\n');
  }
}
