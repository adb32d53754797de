import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  chatReply,
  chatToolCall,
  type FakeOpenAIServer,
  reply,
  startFakeOpenAI,
  toolNames,
  toolUse,
} from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { retrievalCorpus } from '../../support/retrieval-corpus.js';
import { createE2eAgent, type E2eAgent } from '../support/e2e-agent.js';
import { echoResults } from '../support/echo-results.js';
import { runHolodeckCli } from '../support/run-holodeck-cli.js';
import { useFakeModel } from '../support/use-fake-model.js';

const fake = useFakeModel();
let embeddings: FakeOpenAIServer;

beforeAll(async () => {
  embeddings = await startFakeOpenAI({ embeddingDimensions: 64 });
});
afterAll(() => embeddings.close());

const embedded = () => embeddings.embeddingsRequests.length;

function writeCorpus(agent: E2eAgent) {
  for (const [relative, content] of Object.entries(retrievalCorpus())) {
    const target = path.join(agent.directory, relative);
    rmSync(target, { force: true });
    writeFileSync(target, content);
  }
}

function claudeAgent(extraTool: Record<string, unknown> = {}): E2eAgent {
  const agent = createE2eAgent(fake().url, {
    config: {
      embedding_provider: {
        provider: 'openai',
        name: 'text-embedding-3-small',
        endpoint: embeddings.baseUrl,
      },
      tools: [
        {
          type: 'hierarchical_document',
          name: 'handbook',
          description: 'Company handbook',
          source: './docs',
          ...extraTool,
        },
      ],
    },
    files: { 'docs/.keep': '' },
    env: { OPENAI_API_KEY: 'sk-embeddings', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', IS_SANDBOX: '1' },
  });
  writeCorpus(agent);
  return agent;
}

describe('holodeck ingest', () => {
  it('indexes markdown, HTML, PDF and DOCX, names the unsupported file, and is incremental', async () => {
    const agent = claudeAgent();
    const first = await runHolodeckCli(['ingest', agent.file], agent.env);
    expect(first.stderr).toContain('warning tool handbook: skipped unsupported files: diagram.xyz');
    expect(first.stdout).toMatch(
      /✓ handbook: 4 files \(4 indexed, 0 unchanged, 0 removed\), \d+ chunks, \d+ embedded → .*\.holodeck\/index\/e2e-agent\.sqlite/,
    );
    expect(first.code).toBe(0);
    expect(embedded()).toBeGreaterThan(0);

    const before = embedded();
    const again = await runHolodeckCli(['ingest', agent.file], agent.env);
    expect(again.stdout).toMatch(
      /handbook: 4 files \(0 indexed, 4 unchanged, 0 removed\), \d+ chunks, 0 embedded/,
    );
    expect(embedded()).toBe(before);

    writeFileSync(
      path.join(agent.directory, 'docs/policies.md'),
      '# Policies\n\n## Refunds\n\nRefunds take 14 days now.\n',
    );
    rmSync(path.join(agent.directory, 'docs/faq.html'));
    const changed = await runHolodeckCli(['ingest', agent.file], agent.env);
    expect(changed.stdout).toMatch(
      /handbook: 3 files \(1 indexed, 2 unchanged, 1 removed\), \d+ chunks, 1 embedded/,
    );
    expect(changed.stderr).toContain('handbook: indexed policies.md (');
    const inputs = embeddings.embeddingsRequests
      .slice(before)
      .flatMap((request) => request.embeddingsBody?.input ?? []);
    // The heading-only "Policies" section has no text of its own: one chunk, with its heading path.
    expect(inputs).toEqual(['Policies > Refunds\n\nRefunds take 14 days now.']);

    const forced = await runHolodeckCli(['ingest', agent.file, '--force'], agent.env);
    expect(forced.stderr).toContain('note re-embedding every file of tool handbook: a forced re-ingest');
    expect(forced.code).toBe(0);
  }, 60_000);

  it('names a file that cannot be parsed, indexes the others, and exits 5', async () => {
    const agent = claudeAgent();
    writeFileSync(path.join(agent.directory, 'docs/broken.pdf'), 'not a pdf at all');
    const outcome = await runHolodeckCli(['ingest', agent.file], agent.env);
    expect(outcome.stderr).toMatch(/warning tool handbook: cannot index broken\.pdf: .+/);
    expect(outcome.stdout).toMatch(/! handbook: 5 files \(4 indexed, 0 unchanged, 0 removed, 1 failed\)/);
    expect(outcome.code).toBe(5);
  }, 30_000);

  it('stops with the variable to set when the embeddings key is missing', async () => {
    const agent = claudeAgent();
    const { OPENAI_API_KEY: _dropped, ...env } = agent.env;
    const outcome = await runHolodeckCli(['ingest', agent.file], env);
    expect(outcome.stderr).toBe(
      'error embedding_provider provider openai needs an API key for embeddings, but OPENAI_API_KEY is not set. Set it in the environment, in .env next to agent.yaml or in ~/.holodeck/.env, or set embedding_provider.api_key in agent.yaml.\n',
    );
    expect(outcome.code).toBe(2);
  });
});

describe('retrieval tools in a run', () => {
  it('Claude: the model calls mcp__holodeck_tools__handbook_search and reads cited results', async () => {
    const agent = claudeAgent({ search_mode: 'keyword' });
    fake().script(toolUse('mcp__holodeck_tools__handbook_search', { query: 'refund receipt' }), echoResults);
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'How do refunds work?'], agent.env);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain(
      'results: [1] source: policies.md | heading: Policies > Refunds | section: policies/refunds | chunk: policies.md#2 | score: ',
    );
    expect(outcome.stdout).toContain('Refunds are paid within 30 days of a return. Keep your receipt.');
    const first = fake().requests[0];
    const offered = first ? toolNames(first) : [];
    expect(offered).toContain('mcp__holodeck_tools__handbook_search');
  }, 60_000);

  it('Claude: claude.allowed_tools applies to retrieval tools: an unlisted one is neither offered nor ingested', async () => {
    const agent = claudeAgent({ search_mode: 'keyword' });
    writeFileSync(
      path.join(agent.directory, 'faq.csv'),
      'id,question,answer\nq1,How do I reset my password?,From the login page.\n',
    );
    writeFileSync(
      agent.file,
      stringify({
        ...parse(readFileSync(agent.file, 'utf8')),
        tools: [
          {
            type: 'hierarchical_document',
            name: 'handbook',
            description: 'Company handbook',
            source: './docs',
          },
          {
            type: 'vectorstore',
            name: 'faq',
            description: 'Support FAQ',
            source: './faq.csv',
            id_field: 'id',
          },
        ],
        claude: { allowed_tools: ['handbook_search'] },
      }),
    );
    const before = embedded();
    fake().script(reply('Nothing to search.'));
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'Hello'], agent.env);
    expect(outcome.code).toBe(0);
    const first = fake().requests[0];
    const offered = first ? toolNames(first) : [];
    expect(offered).toContain('mcp__holodeck_tools__handbook_search');
    expect(offered.filter((name) => name.includes('faq'))).toEqual([]);
    const inputs = embeddings.embeddingsRequests
      .slice(before)
      .flatMap((request) => request.embeddingsBody?.input ?? []);
    expect(inputs.length).toBeGreaterThan(0);
    expect(inputs.filter((input) => input.includes('reset my password'))).toEqual([]);
  }, 60_000);

  it('AI SDK (openai): the model calls handbook_search; PDF results cite their page', async () => {
    const agent = createE2eAgent(fake().url, {
      config: {
        model: { provider: 'openai', name: 'gpt-4o', endpoint: embeddings.baseUrl },
        tools: [
          {
            type: 'vectorstore',
            name: 'handbook',
            description: 'Company handbook',
            source: './docs',
            top_k: 2,
          },
        ],
      },
      files: { 'docs/.keep': '' },
      env: { OPENAI_API_KEY: 'sk-openai' },
    });
    writeCorpus(agent);
    embeddings.script(
      chatToolCall('handbook_search', { query: 'warranty covers two years' }),
      chatReply('Two years.'),
    );
    const outcome = await runHolodeckCli(
      ['chat', agent.file, '-p', 'How long is the warranty?', '--json'],
      agent.env,
    );
    // Start-up ingestion reports what it could not read, as a warning.
    expect(outcome.stderr).toBe('warning tool handbook: skipped unsupported files: diagram.xyz\n');
    expect(outcome.code).toBe(0);
    const result = JSON.parse(outcome.stdout) as { tool_results: { result: string }[] };
    expect(result.tool_results[0]?.result).toMatch(
      /^\[1\] source: manual\.pdf \| page: 1 \| chunk: manual\.pdf#1 \| score: 0\.\d{4}\nWarranty\nThe warranty covers two years of use\./,
    );
    embeddings.assertComplete();
    embeddings.reset();
  }, 60_000);

  it('holodeck test: RAG metrics of a case whose searches found nothing fail saying so, not asking for context', async () => {
    const agent = createE2eAgent(fake().url, {
      config: {
        model: { provider: 'openai', name: 'gpt-4o', endpoint: embeddings.baseUrl },
        tools: [
          {
            type: 'vectorstore',
            name: 'handbook',
            description: 'Company handbook',
            source: './docs',
            search_mode: 'keyword',
          },
        ],
        evaluations: { model: { provider: 'openai', name: 'gpt-4o', endpoint: embeddings.baseUrl } },
        test_cases: [
          {
            name: 'lunar refunds',
            input: 'Do you refund trips to the moon?',
            metrics: [{ type: 'faithfulness' }, { type: 'contextual_relevancy' }],
          },
        ],
      },
      files: { 'docs/.keep': '' },
      env: { OPENAI_API_KEY: 'sk-openai' },
    });
    writeCorpus(agent);
    // Two keyword searches for words no chunk holds, then an answer; the judge is never asked.
    embeddings.script(
      chatToolCall('handbook_search', { query: 'lunar spaceflight' }),
      chatToolCall('handbook_search', { query: 'moon voyages' }),
      chatReply('The handbook says nothing about trips to the moon.'),
    );
    const report = path.join(agent.directory, 'report.json');
    const outcome = await runHolodeckCli(['test', agent.file, '-o', report, '--no-save'], agent.env);
    expect(outcome.code).toBe(1);
    const written = JSON.parse(readFileSync(report, 'utf8')) as {
      cases: { attempts: { tool_results: { result: string }[]; metrics: Record<string, unknown>[] }[] }[];
    };
    const [attempt] = written.cases[0]?.attempts ?? [];
    expect(attempt?.tool_results.map((result) => result.result)).toEqual([
      'No results found.',
      'No results found.',
    ]);
    const reason =
      "The agent's searches (handbook_search ×2) returned no passages; nothing to judge against.";
    expect(attempt?.metrics).toEqual([
      expect.objectContaining({ name: 'faithfulness', score: 0, passed: false, reason }),
      expect.objectContaining({ name: 'contextual_relevancy', score: 0, passed: false, reason }),
    ]);
    expect(attempt?.metrics.some((metric) => 'error' in metric)).toBe(false);
    expect(`${outcome.stdout}${outcome.stderr}`).not.toContain('add context');
    embeddings.assertComplete();
    embeddings.reset();
  }, 60_000);
});
