#!/usr/bin/env node
// @ts-check
// The baseline of bench/chat-vs-sdk.mjs: one bare Claude Agent SDK query() with the options
// HoloDeck passes that affect cost, and no HoloDeck code. Prints the result text, like
// `holodeck chat <agent.yaml> -p <prompt>` does.
//
//   ANTHROPIC_API_KEY=... [ANTHROPIC_BASE_URL=...] node bench/bare-sdk-query.mjs \
//     -p "prompt" [--system "instructions"] [--model claude-sonnet-4-6] [--cwd dir]
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { query } from '@anthropic-ai/claude-agent-sdk';

/**
 * The CLI environment HoloDeck builds (build-subprocess-env.ts): the SDK's `env` option REPLACES
 * the subprocess environment, so the variables are listed one by one.
 */
export function bareCliEnv(source = process.env) {
  const env = {};
  for (const name of ['PATH', 'HOME', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL']) {
    if (source[name]) env[name] = source[name];
  }
  return {
    ...env,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_MAX_RETRIES: '2',
    API_TIMEOUT_MS: '120000',
    CLAUDE_AGENT_SDK_CLIENT_APP: 'chat-vs-sdk-bench/bare',
  };
}

/** Runs one query() to its end and returns the result text; throws if the run failed. */
export async function runBareQuery({ prompt, systemPrompt, model, cwd, env }) {
  let result;
  for await (const message of query({
    prompt,
    options: {
      model,
      systemPrompt,
      tools: [],
      allowedTools: [],
      settingSources: [],
      strictMcpConfig: true,
      thinking: { type: 'disabled' },
      mcpServers: {},
      cwd,
      env,
    },
  })) {
    if (message.type === 'result') result = message;
  }
  if (!result) throw new Error('bare query(): the stream ended without a result message');
  if (result.subtype !== 'success' || result.is_error) {
    throw new Error(`bare query(): run failed (${result.subtype}): ${JSON.stringify(result).slice(0, 500)}`);
  }
  return result.result;
}

async function main() {
  const { values } = parseArgs({
    options: {
      prompt: { type: 'string', short: 'p' },
      system: { type: 'string', default: 'You are a helpful assistant.' },
      model: { type: 'string', default: 'claude-sonnet-4-6' },
      cwd: { type: 'string', default: process.cwd() },
    },
  });
  if (values.prompt === undefined) throw new Error('usage: node bench/bare-sdk-query.mjs -p "prompt"');
  const text = await runBareQuery({
    prompt: values.prompt,
    systemPrompt: values.system,
    model: values.model,
    cwd: values.cwd,
    env: bareCliEnv(),
  });
  process.stdout.write(`${text}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    await main();
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
