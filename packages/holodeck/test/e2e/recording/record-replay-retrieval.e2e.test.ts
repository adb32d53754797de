import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  chatReply,
  chatRespond,
  chatToolCall,
  chatToolResults,
  type FakeAnthropicServer,
  type FakeOpenAIServer,
  reply,
  respond,
  startFakeAnthropic,
  startFakeOpenAI,
  toolResults,
  toolUse,
} from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createE2eAgent, type E2eAgent } from '../support/e2e-agent.js';
import { runHolodeckCli } from '../support/run-holodeck-cli.js';

// A retrieval tool's embeddings (the start-up ingest and the queries) are recorded with the model
// traffic and replayed: a fresh checkout (no index) replays with no network.

const DOCS = {
  'docs/warranty.md': '# Warranty\n\nThe warranty covers two years of use.\n',
  'docs/returns.md': '# Returns\n\nOpened electronics can be returned within 14 days.\n',
};
const HANDBOOK = {
  type: 'vectorstore',
  name: 'handbook',
  description: 'Company handbook',
  source: './docs',
  top_k: 1,
};
const CASES = [
  {
    name: 'warranty',
    input: 'How long is the warranty?',
    expected_tools: ['handbook_search'],
    metrics: [{ type: 'contains', value: 'two years' }],
  },
];

let openai: FakeOpenAIServer;
let anthropic: FakeAnthropicServer;
beforeAll(async () => {
  openai = await startFakeOpenAI({ embeddingDimensions: 32 });
  anthropic = await startFakeAnthropic();
});
afterAll(async () => {
  await openai.close();
  await anthropic.close();
});

function report(file: string) {
  const json = JSON.parse(readFileSync(file, 'utf8'));
  return json.cases.map((entry: { name: string; passed: boolean; tool_results: { result: string }[] }) => ({
    name: entry.name,
    passed: entry.passed,
    results: entry.tool_results.map((result) => result.result),
  }));
}

async function recordThenReplay(agent: E2eAgent, closeUpstream: () => Promise<void>) {
  const work = mkdtempSync(path.join(tmpdir(), 'record-retrieval-'));
  const live = path.join(work, 'live.json');
  const recorded = await runHolodeckCli(['test', agent.file, '--record', '--no-save', '-o', live], agent.env);
  expect(recorded.code).toBe(0);
  const embeddingsRequests = openai.embeddingsRequests.length;
  expect(embeddingsRequests).toBeGreaterThanOrEqual(2);
  const folder = path.join(agent.directory, '.holodeck', 'recordings');
  const sources = readdirSync(folder).flatMap((name) => {
    const file = JSON.parse(readFileSync(path.join(folder, name), 'utf8'));
    return file.exchanges.map(
      (exchange: { source: string }) => `${file.case === '_setup' ? 'setup' : 'case'}:${exchange.source}`,
    );
  });
  for (const name of readdirSync(folder))
    expect(readFileSync(path.join(folder, name), 'utf8')).not.toContain(agent.env.OPENAI_API_KEY);
  // The ingest's embeddings belong to the start-up, the query's to the case.
  expect(sources).toContain('setup:embeddings');
  expect(sources).toContain('case:embeddings');
  // A fresh checkout: no index, no upstream.
  rmSync(path.join(agent.directory, '.holodeck', 'index'), { recursive: true, force: true });
  await closeUpstream();
  const replay = path.join(work, 'replay.json');
  const replayed = await runHolodeckCli(
    ['test', agent.file, '--replay', '--no-save', '-o', replay],
    agent.env,
  );
  expect(replayed.stderr).toContain('no request went to the network');
  expect(replayed.code).toBe(0);
  expect(report(replay)).toEqual(report(live));
  expect(report(live)[0].results[0]).toContain('two years');
}

describe('recording the embeddings of retrieval tools', () => {
  it('AI SDK: ingest and query embeddings replay from the recording', async () => {
    openai.script(
      chatRespond((request) =>
        chatToolResults(request).length
          ? chatReply('The warranty covers two years.')
          : chatToolCall('handbook_search', { query: 'warranty length' }),
      ),
      chatRespond(() => chatReply('The warranty covers two years.')),
    );
    const agent = createE2eAgent(anthropic.url, {
      config: {
        model: { provider: 'openai', name: 'gpt-4o', endpoint: openai.baseUrl },
        tools: [HANDBOOK],
        test_cases: CASES,
      },
      files: DOCS,
      env: { OPENAI_API_KEY: 'sk-openai-recorded' },
    });
    await recordThenReplay(agent, async () => {
      openai.reset();
    });
    // Reset, not closed (the next test uses it): nothing reached it during the replay.
    expect(openai.allRequests).toHaveLength(0);
  }, 120_000);

  it('Claude: the CLI through the proxy, the embeddings through the fetch wrapper', async () => {
    openai.reset();
    anthropic.script(
      toolUse('mcp__holodeck_tools__handbook_search', { query: 'warranty length' }),
      respond((request) => reply(toolResults(request).length ? 'The warranty covers two years.' : 'no')),
    );
    const agent = createE2eAgent(anthropic.url, {
      config: {
        embedding_provider: { provider: 'openai', name: 'text-embedding-3-small', endpoint: openai.baseUrl },
        tools: [HANDBOOK],
        claude: { allowed_tools: ['handbook_search'] },
        test_cases: CASES,
      },
      files: DOCS,
      env: { OPENAI_API_KEY: 'sk-embeddings-recorded' },
    });
    await recordThenReplay(agent, async () => {
      openai.reset();
      anthropic.reset();
    });
    expect(openai.allRequests).toHaveLength(0);
    expect(anthropic.allRequests).toHaveLength(0);
  }, 120_000);
});
