import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  chatReply,
  type FakeAnthropicServer,
  type FakeOpenAIServer,
  reply,
  startFakeAnthropic,
  startFakeOpenAI,
} from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createE2eAgent, type E2eAgent } from './support/e2e-agent.js';
import { type CliOutcome, runHolodeckCli } from './support/run-holodeck-cli.js';

// `holodeck chat -p` loads the code of the agent's backend and nothing else: no Claude Agent SDK
// for an AI SDK agent, only the configured AI SDK provider, no AI SDK for an Anthropic agent, and
// no MCP client, ajv, Novarch or retrieval packages for an agent without tools or governance. Each
// costs start-up time (bench/chat-vs-ai-sdk.mjs, bench/chat-vs-sdk.mjs).
//
// What a run loaded comes from two sources, both appended to the file HOLODECK_TRACE_LOADS names:
// the CLI's own trace (bin/load-with-code-cache.js: every bundle it loads, such as the vendored
// Claude SDK and AI SDK, and each AI SDK package taken from its bundle or from node_modules), and
// a --require hook that records every package HoloDeck's own files require() (not what packages
// require among themselves), so the installed packages count too.

const OPENAI_KEY = 'sk-start-up-loads-0001';
const AZURE_KEY = 'azure-start-up-loads-0002';

/** Records each package a file outside node_modules requires: `require <specifier>`. */
const REQUIRE_HOOK = `
const Module = require('node:module');
const { appendFileSync } = require('node:fs');
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const fromHoloDeck = parent && parent.filename && !parent.filename.includes('/node_modules/');
  const isPackage = !request.startsWith('.') && !request.startsWith('/') && !request.startsWith('node:')
    && !Module.builtinModules.includes(request);
  if (fromHoloDeck && isPackage && process.env.HOLODECK_TRACE_LOADS)
    appendFileSync(process.env.HOLODECK_TRACE_LOADS, 'require ' + request + '\\n');
  return load.apply(this, arguments);
};
`;

/** The packages a run loaded, from its trace: `ai`, `@ai-sdk/openai`, `claude-agent-sdk.cjs`, ... */
function loadedNames(trace: string): string[] {
  const names = trace
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [kind, what = ''] = line.split(' ');
      if (kind === 'bundle') return path.basename(what);
      if (kind === 'require') return packageName(what);
      return what; // vendored <package>, installed <package>
    });
  return [...new Set(names)].sort();
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** Never needed by a plain agent: no tools, no governance, no retrieval. */
const TOOL_PACKAGES = [
  '@modelcontextprotocol/sdk',
  'ajv',
  'ajv-formats',
  'novarch',
  'judge-client',
  'tsx',
  'better-sqlite3',
  'sqlite-vec',
  'js-tiktoken',
  'unpdf',
  'mammoth',
  'turndown',
  'csv-parse',
  'kysely',
  'pg',
];
const CLAUDE_SDK = ['claude-agent-sdk.cjs', '@anthropic-ai/claude-agent-sdk'];
const AI_SDK = ['ai-sdk.cjs', 'ai', '@ai-sdk/openai', '@ai-sdk/azure', '@ai-sdk/openai-compatible'];

let hookFile: string;
let openai: FakeOpenAIServer;
let anthropic: FakeAnthropicServer;
beforeAll(async () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'holodeck-start-up-loads-'));
  hookFile = path.join(directory, 'record-requires.cjs');
  writeFileSync(hookFile, REQUIRE_HOOK);
  [openai, anthropic] = await Promise.all([startFakeOpenAI(), startFakeAnthropic()]);
});
afterAll(async () => {
  await Promise.all([openai?.close(), anthropic?.close()]);
});

/** `holodeck chat <agent> -p hi` with the trace on; returns the outcome and what it loaded. */
async function chatOnce(agent: E2eAgent): Promise<{ outcome: CliOutcome; loaded: string[] }> {
  const trace = path.join(agent.directory, 'loads.txt');
  writeFileSync(trace, '');
  const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'hi'], {
    ...agent.env,
    HOLODECK_TRACE_LOADS: trace,
    NODE_OPTIONS: `--require ${hookFile}`,
  });
  return { outcome, loaded: loadedNames(readFileSync(trace, 'utf8')) };
}

describe('holodeck chat -p loads only what the agent needs', () => {
  it('openai: the AI SDK with @ai-sdk/openai, not the Claude Agent SDK, the other providers or tool packages', async () => {
    openai.script(chatReply('openai answer'));
    const agent = createE2eAgent(openai.url, {
      config: { model: { provider: 'openai', name: 'gpt-4o-mini', endpoint: openai.baseUrl } },
      env: { OPENAI_API_KEY: OPENAI_KEY },
    });
    const { outcome, loaded } = await chatOnce(agent);

    expect(outcome).toMatchObject({ code: 0, stdout: 'openai answer\n', stderr: '' });
    // The trace sees the loads it checks: the CLI bundle, the AI SDK and the provider.
    expect(loaded).toEqual(expect.arrayContaining(['main.cjs', 'ai', '@ai-sdk/openai']));
    expect(loaded.filter((name) => CLAUDE_SDK.includes(name))).toEqual([]);
    expect(loaded.filter((name) => ['@ai-sdk/azure', '@ai-sdk/openai-compatible'].includes(name))).toEqual(
      [],
    );
    expect(loaded.filter((name) => TOOL_PACKAGES.includes(name))).toEqual([]);
  });

  it('azure_openai: only @ai-sdk/azure of the providers', async () => {
    openai.script(chatReply('azure answer'));
    const agent = createE2eAgent(openai.url, {
      config: {
        model: {
          provider: 'azure_openai',
          name: 'gpt-4o',
          endpoint: openai.url,
          deployment: 'start-up-loads',
          api_version: '2024-10-21',
        },
      },
      env: { AZURE_OPENAI_API_KEY: AZURE_KEY },
    });
    const { outcome, loaded } = await chatOnce(agent);

    expect(outcome).toMatchObject({ code: 0, stdout: 'azure answer\n' });
    expect(loaded).toEqual(expect.arrayContaining(['ai', '@ai-sdk/azure']));
    expect(loaded.filter((name) => [...CLAUDE_SDK, '@ai-sdk/openai-compatible'].includes(name))).toEqual([]);
    // @ai-sdk/azure builds on @ai-sdk/openai's internals; HoloDeck itself never imports the latter.
    expect(loaded.filter((name) => TOOL_PACKAGES.includes(name))).toEqual([]);
  });

  it('ollama: only @ai-sdk/openai-compatible of the providers', async () => {
    openai.script(chatReply('ollama answer'));
    const agent = createE2eAgent(openai.url, {
      config: { model: { provider: 'ollama', name: 'llama3.2', endpoint: openai.url } },
    });
    const { outcome, loaded } = await chatOnce(agent);

    expect(outcome).toMatchObject({ code: 0, stdout: 'ollama answer\n' });
    expect(loaded).toEqual(expect.arrayContaining(['ai', '@ai-sdk/openai-compatible']));
    expect(
      loaded.filter((name) => [...CLAUDE_SDK, '@ai-sdk/openai', '@ai-sdk/azure'].includes(name)),
    ).toEqual([]);
    expect(loaded.filter((name) => TOOL_PACKAGES.includes(name))).toEqual([]);
  });

  it('anthropic: the Claude Agent SDK, and no part of the AI SDK', async () => {
    anthropic.script(reply('anthropic answer'));
    const agent = createE2eAgent(anthropic.url);
    const { outcome, loaded } = await chatOnce(agent);

    expect(outcome).toMatchObject({ code: 0, stdout: 'anthropic answer\n' });
    expect(loaded.some((name) => CLAUDE_SDK.includes(name))).toBe(true);
    expect(loaded.filter((name) => AI_SDK.includes(name))).toEqual([]);
    expect(loaded.filter((name) => TOOL_PACKAGES.includes(name))).toEqual([]);
  });
});
