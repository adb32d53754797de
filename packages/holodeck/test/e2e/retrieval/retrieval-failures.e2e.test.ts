import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { chatReply, chatToolCall, type FakeOpenAIServer, startFakeOpenAI } from '@holodeck/testkit';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { retrievalCorpus } from '../../support/retrieval-corpus.js';
import { createE2eAgent, type E2eAgent } from '../support/e2e-agent.js';
import { runHolodeckCli } from '../support/run-holodeck-cli.js';

// Start-up and ingest failures of retrieval tools, through the real CLI, on the AI SDK backend
// (openai: the fake OpenAI server is the model and the embeddings API; no Claude CLI is needed
// for what these tests check, which is the same for both backends).
let wide: FakeOpenAIServer;
let narrow: FakeOpenAIServer;

beforeAll(async () => {
  [wide, narrow] = await Promise.all([
    startFakeOpenAI({ embeddingDimensions: 64 }),
    startFakeOpenAI({ embeddingDimensions: 32 }),
  ]);
});
afterAll(() => Promise.all([wide.close(), narrow.close()]));

/** An openai agent with a handbook over the mixed corpus, its model and embeddings at `server`. */
function openaiAgent(server: FakeOpenAIServer, tool: Record<string, unknown> = {}): E2eAgent {
  const files = Object.fromEntries(
    Object.entries(retrievalCorpus()).filter(([, content]) => typeof content === 'string'),
  ) as Record<string, string>;
  const agent = createE2eAgent('http://127.0.0.1:9', {
    config: {
      model: { provider: 'openai', name: 'gpt-4o', endpoint: server.baseUrl },
      tools: [
        {
          type: 'hierarchical_document',
          name: 'handbook',
          description: 'Company handbook',
          source: './docs',
          ...tool,
        },
      ],
    },
    files,
    env: { OPENAI_API_KEY: 'sk-openai' },
  });
  for (const [relative, content] of Object.entries(retrievalCorpus())) {
    if (typeof content !== 'string') writeFileSync(path.join(agent.directory, relative), content);
  }
  return agent;
}

/** Points the agent at another server (its model, hence its embeddings), same model names. */
function repoint(agent: E2eAgent, server: FakeOpenAIServer) {
  writeFileSync(
    agent.file,
    stringify({
      name: 'e2e-agent',
      model: { provider: 'openai', name: 'gpt-4o', endpoint: server.baseUrl },
      instructions: { inline: 'You are the e2e test agent. Answer briefly.' },
      tools: [
        {
          type: 'hierarchical_document',
          name: 'handbook',
          description: 'Company handbook',
          source: './docs',
        },
      ],
    }),
  );
}

const inputsSince = (server: FakeOpenAIServer, from: number) =>
  server.embeddingsRequests.slice(from).flatMap((request) => request.embeddingsBody?.input ?? []);

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

describe('--force-ingest', () => {
  it('chat --force-ingest re-embeds every chunk before the run, and --json output stays JSON', async () => {
    const agent = openaiAgent(wide);
    const first = await runHolodeckCli(['ingest', agent.file], agent.env);
    expect(first.code).toBe(0);
    const chunks = Number(/, (\d+) chunks, /.exec(first.stdout)?.[1]);
    expect(chunks).toBeGreaterThan(4);

    const before = wide.embeddingsRequests.length;
    const unchanged = await runHolodeckCli(['ingest', agent.file], agent.env);
    expect(unchanged.stdout).toContain(`, ${chunks} chunks, 0 embedded`);
    expect(wide.embeddingsRequests.length).toBe(before);

    wide.script(chatReply('Nothing to look up.'));
    const outcome = await runHolodeckCli(
      ['chat', agent.file, '--force-ingest', '-p', 'Hello', '--json'],
      agent.env,
    );
    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout)).toMatchObject({ response: 'Nothing to look up.', is_error: false });
    expect(outcome.stderr).toContain('note re-embedding every file of tool handbook: a forced re-ingest');
    expect(outcome.stderr).toMatch(
      new RegExp(
        `✓ handbook: 4 files \\(4 indexed, 0 unchanged, 0 removed\\), ${chunks} chunks, ${chunks} embedded`,
      ),
    );
    // Every chunk was embedded again, once: the backend's own start-up ingest found nothing to do.
    const embedded = inputsSince(wide, before);
    expect(embedded).toHaveLength(chunks);
    expect(new Set(embedded).size).toBe(chunks);
    wide.assertComplete();
    wide.reset();
  }, 60_000);
});

describe('an unreachable PostgreSQL index', () => {
  it('names the tool, the field and the host, never the password; ingest and chat both stop with exit 2', async () => {
    const port = await closedPort();
    const agent = openaiAgent(wide, {
      database: {
        provider: 'postgres',
        connection_string: `postgres://holodeck:\${PGPASSWORD}@127.0.0.1:${port}/kb`,
      },
    });
    const env = { ...agent.env, PGPASSWORD: 'Very-Secret-Pw-42' };
    const expected =
      '1 problem in agent configuration:\n' +
      `${agent.file}:15:26  tools[0].database.connection_string: tool handbook: cannot use the PostgreSQL index at 127.0.0.1:${port}/kb: connect ECONNREFUSED 127.0.0.1:${port}\n` +
      '    hint: check the server is running and reachable, and the user, password and database in connection_string\n';
    const ingest = await runHolodeckCli(['ingest', agent.file], env);
    expect(ingest.stderr).toBe(expected);
    expect(ingest.code).toBe(2);
    const chat = await runHolodeckCli(['chat', agent.file, '-p', 'Hello'], env);
    expect(chat.stderr).toBe(expected);
    expect(chat.code).toBe(2);
    expect(`${ingest.stdout}${ingest.stderr}${chat.stdout}${chat.stderr}`).not.toContain('Very-Secret-Pw-42');
  }, 60_000);
});

describe('vectors of another size than the index', () => {
  it('are found at search and at ingest, with how to rebuild; --force rebuilds at the new size', async () => {
    const agent = openaiAgent(wide);
    expect((await runHolodeckCli(['ingest', agent.file], agent.env)).code).toBe(0);
    // Same model name, now answered with 32-dimension vectors (a model replaced behind its name).
    repoint(agent, narrow);

    narrow.script(chatToolCall('handbook_search', { query: 'refunds' }), chatReply('I could not search.'));
    const chat = await runHolodeckCli(
      ['chat', agent.file, '-p', 'How do refunds work?', '--json'],
      agent.env,
    );
    expect(chat.code).toBe(0);
    const result = JSON.parse(chat.stdout) as { tool_results: { result: string; is_error: boolean }[] };
    expect(result.tool_results).toEqual([
      {
        call_id: expect.any(String),
        is_error: true,
        result:
          'Search failed: the index of tool handbook holds 64-dimension vectors, but embedding model text-embedding-3-small now returns 32 dimensions; re-ingest every file with `holodeck ingest --force` (or --force-ingest on chat or test)',
      },
    ]);
    narrow.assertComplete();
    narrow.reset();

    writeFileSync(
      path.join(agent.directory, 'docs/policies.md'),
      '# Policies\n\n## Refunds\n\nRefunds take 14 days now.\n',
    );
    const ingest = await runHolodeckCli(['ingest', agent.file], agent.env);
    expect(ingest.stderr).toBe(
      '1 problem in agent configuration:\n' +
        // The tool sets no embedding_model: the model is the default of the agent's model provider.
        `${agent.file}:3:13  model.provider: tool handbook: embedding model text-embedding-3-small (the default embedding model of provider openai) returned vectors of 32 dimensions, but the index was built with 64\n` +
        `    hint: re-ingest every file: \`holodeck ingest --force ${agent.file}\`, or --force-ingest on chat or test\n`,
    );
    expect(ingest.code).toBe(2);

    const forced = await runHolodeckCli(['ingest', agent.file, '--force'], agent.env);
    expect(forced.stderr).toContain('note re-embedding every file of tool handbook: a forced re-ingest');
    expect(forced.code).toBe(0);
    expect(
      narrow.embeddingsRequests.every(
        (request) => request.embeddingsBody?.model === 'text-embedding-3-small',
      ),
    ).toBe(true);
  }, 90_000);
});

describe('the embedded index database', () => {
  it('failing mid-ingest stops ingest with exit 3, naming the tool, the index and the reason', async () => {
    // Another program takes the index's write lock while holodeck embeds the changed file.
    let indexFile = '';
    let holder: Database.Database | undefined;
    const server = await startFakeOpenAI({
      embeddingDimensions: 16,
      onRequest: (request) => {
        if (indexFile && !holder && request.embeddingsBody) {
          holder = new Database(indexFile);
          holder.exec('BEGIN IMMEDIATE');
        }
      },
    });
    try {
      const agent = openaiAgent(server);
      expect((await runHolodeckCli(['ingest', agent.file], agent.env)).code).toBe(0);
      writeFileSync(
        path.join(agent.directory, 'docs/policies.md'),
        '# Policies\n\nRefunds take 14 days now.\n',
      );
      indexFile = path.join(agent.directory, '.holodeck', 'index', 'e2e-agent.sqlite');
      const ingest = await runHolodeckCli(['ingest', agent.file], agent.env);
      expect(holder).toBeDefined();
      expect(ingest.stderr).toBe(
        `error tool handbook: the index at ${indexFile} failed during ingestion: database is locked\n`,
      );
      expect(ingest.code).toBe(3);
      expect(ingest.stdout).toBe('');
    } finally {
      holder?.exec('ROLLBACK');
      holder?.close();
      await server.close();
    }
  }, 60_000);

  it('that cannot be opened stops ingest with exit 2, located at the tool', async () => {
    const agent = openaiAgent(wide);
    const indexFile = path.join(agent.directory, '.holodeck', 'index', 'e2e-agent.sqlite');
    mkdirSync(path.dirname(indexFile), { recursive: true });
    writeFileSync(indexFile, 'not a database, '.repeat(16));
    const embedded = wide.embeddingsRequests.length;
    const ingest = await runHolodeckCli(['ingest', agent.file], agent.env);
    expect(ingest.stderr).toBe(
      '1 problem in agent configuration:\n' +
        `${agent.file}:9:5  tools[0]: tool handbook: cannot open the embedded index ${indexFile}: file is not a database\n` +
        `    hint: check that ${path.dirname(indexFile)} can be written; the index is made from the sources, so a damaged one can be deleted and rebuilt with \`holodeck ingest\`\n`,
    );
    expect(ingest.code).toBe(2);
    expect(wide.embeddingsRequests).toHaveLength(embedded);
  }, 60_000);
});
