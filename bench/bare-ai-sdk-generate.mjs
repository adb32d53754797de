#!/usr/bin/env node
// @ts-check
// The baseline of bench/chat-vs-ai-sdk.mjs: one bare AI SDK generateText() over OpenAI's Chat
// Completions API, with the options HoloDeck's AI SDK backend passes that affect cost, and no
// HoloDeck code. Prints the answer, like `holodeck chat <agent.yaml> -p <prompt>` does.
//
//   OPENAI_API_KEY=... [OPENAI_BASE_URL=...] node bench/bare-ai-sdk-generate.mjs \
//     -p "prompt" [--system "instructions"] [--model gpt-4o-mini]
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText } from 'ai';

/**
 * The Chat Completions model as HoloDeck builds it (create-language-model.ts): `.chat()` (the
 * provider's default is the Responses API), with the base URL and key passed explicitly.
 */
export function bareChatModel({
  model,
  baseURL = process.env.OPENAI_BASE_URL,
  apiKey = process.env.OPENAI_API_KEY,
}) {
  return createOpenAI({ ...(baseURL ? { baseURL } : {}), apiKey }).chat(model);
}

/**
 * One generateText() with HoloDeck's settings for an agent with no tools, temperature or
 * max_tokens: the instructions as `system`, the prompt as the one user message, 3 attempts per
 * model call (maxRetries 2). Returns the answer's text; throws if the call failed.
 */
export async function runBareGenerate({ model, system, prompt }) {
  const result = await generateText({
    model,
    system,
    messages: [{ role: 'user', content: prompt }],
    maxRetries: 2,
  });
  return result.text;
}

async function main() {
  const { values } = parseArgs({
    options: {
      prompt: { type: 'string', short: 'p' },
      system: { type: 'string', default: 'You are a helpful assistant.' },
      model: { type: 'string', default: 'gpt-4o-mini' },
    },
  });
  if (values.prompt === undefined) throw new Error('usage: node bench/bare-ai-sdk-generate.mjs -p "prompt"');
  const text = await runBareGenerate({
    model: bareChatModel({ model: values.model }),
    system: values.system,
    prompt: values.prompt,
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
