import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type FakeOpenAIServer, startFakeOpenAI } from '@holodeck/testkit';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../src/errors.js';
import { loadAgent } from '../../../../src/load-agent.js';
import {
  embeddedIndexFile,
  IndexDatabaseError,
  openRetrievalIndexes,
} from '../../../../src/tools/retrieval/open-retrieval-index.js';
import { retrievalToolEntries } from '../../../../src/tools/retrieval/retrieval-tool-entries.js';
import { type AgentSandbox, brief, createSandbox, lines } from '../../config/agent-sandbox.js';

// What openRetrievalIndexes (holodeck ingest, and every chat or test start-up) says when the
// vectors change size or the index's database fails, on the embedded SQLite index.
let server: FakeOpenAIServer;
/** The size of the vectors the fake embeddings API returns now. */
let size = 16;
beforeAll(async () => {
  server = await startFakeOpenAI({
    embed: (input) => Array.from({ length: size }, (_, i) => (i + input.length) % 7),
  });
});
afterAll(() => server.close());

let sandbox: AgentSandbox;
beforeEach(async () => {
  size = 16;
  sandbox = await createSandbox();
  await sandbox.write('docs/a.md', '# A\n\nAlpha.\n');
});
afterEach(() => sandbox.remove());

const env = () => ({ OPENAI_API_KEY: 'sk-test' });

async function ingest(yaml: string) {
  await sandbox.write('agent.yaml', yaml);
  const agent = await loadAgent(sandbox.agentFile, { env: env(), homeDir: sandbox.home });
  const { stores } = await openRetrievalIndexes(agent, retrievalToolEntries(agent.config.tools), {
    embeddings: { maxRetries: 0 },
  });
  await Promise.all(stores.map((store) => store.close()));
  return agent;
}

/** The issues of the ConfigError `work` rejects with. */
async function issuesOf(work: Promise<unknown>): Promise<string[]> {
  const error = await work.then(
    () => undefined,
    (rejected: unknown) => rejected,
  );
  if (!(error instanceof ConfigError)) throw new Error(`expected a ConfigError, got ${String(error)}`);
  return error.issues.map(brief);
}

const tool = (...fields: string[]) => [
  'tools:',
  '  - type: vectorstore',
  '    name: handbook',
  '    description: Company handbook',
  '    source: ./docs',
  ...fields,
];

/** Ingests once at 16 dimensions, then changes a file and ingests again at 8. */
async function ingestAtAnotherSize(yaml: string): Promise<string[]> {
  await ingest(yaml);
  size = 8;
  await sandbox.write('docs/a.md', '# A\n\nAlpha, changed.\n');
  return issuesOf(ingest(yaml));
}

// The sandbox is outside the working directory: the hint names agent.yaml by its absolute path.
const rebuild = () =>
  `re-ingest every file: \`holodeck ingest --force ${sandbox.agentFile}\`, or --force-ingest on chat or test`;

describe('vectors of another size than the index', () => {
  it("cite the agent's model provider when it chose the default embedding model", async () => {
    const yaml = lines(
      'name: test-agent',
      'model:',
      '  provider: openai',
      '  name: gpt-4o',
      `  endpoint: ${server.baseUrl}`,
      'instructions:',
      '  inline: Be helpful.',
      ...tool(),
    );
    expect(await ingestAtAnotherSize(yaml)).toEqual([
      `3:13 model.provider: tool handbook: embedding model text-embedding-3-small (the default embedding model of provider openai) returned vectors of 8 dimensions, but the index was built with 16 | ${rebuild()}`,
    ]);
  });

  it('cite embedding_provider.name when the model came from there', async () => {
    const yaml = lines(
      'name: test-agent',
      'model:',
      '  provider: anthropic',
      '  name: claude-sonnet-4-5',
      'embedding_provider:',
      '  provider: openai',
      '  name: my-embedder',
      `  endpoint: ${server.baseUrl}`,
      'instructions:',
      '  inline: Be helpful.',
      ...tool(),
    );
    expect(await ingestAtAnotherSize(yaml)).toEqual([
      `7:9 embedding_provider.name: tool handbook: embedding model my-embedder returned vectors of 8 dimensions, but the index was built with 16 | ${rebuild()}`,
    ]);
  });

  it("cite the tool's embedding_model when it sets one", async () => {
    const yaml = lines(
      'name: test-agent',
      'model:',
      '  provider: anthropic',
      '  name: claude-sonnet-4-5',
      'embedding_provider:',
      '  provider: openai',
      '  name: my-embedder',
      `  endpoint: ${server.baseUrl}`,
      'instructions:',
      '  inline: Be helpful.',
      ...tool('    embedding_model: tool-embedder'),
    );
    expect(await ingestAtAnotherSize(yaml)).toEqual([
      `16:22 tools[0].embedding_model: tool handbook: embedding model tool-embedder returned vectors of 8 dimensions, but the index was built with 16 | ${rebuild()}`,
    ]);
  });
});

const OPENAI_AGENT = () =>
  lines(
    'name: test-agent',
    'model:',
    '  provider: openai',
    '  name: gpt-4o',
    `  endpoint: ${server.baseUrl}`,
    'instructions:',
    '  inline: Be helpful.',
    ...tool(),
  );

describe('the database of the embedded index', () => {
  it('failing mid-ingest is an IndexDatabaseError naming the tool and the index', async () => {
    const agent = await ingest(OPENAI_AGENT());
    await sandbox.write('docs/a.md', '# A\n\nAlpha, changed.\n');
    // Another program holds the index's write lock while the changed file is written.
    const holder = new Database(embeddedIndexFile(agent));
    holder.exec('BEGIN IMMEDIATE');
    try {
      const error = await ingest(OPENAI_AGENT()).then(
        () => undefined,
        (rejected: unknown) => rejected,
      );
      expect(error).toBeInstanceOf(IndexDatabaseError);
      expect((error as Error).message).toBe(
        `tool handbook: the index at ${embeddedIndexFile(agent)} failed during ingestion: database is locked`,
      );
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it('that cannot be opened is a configuration error located at the tool', async () => {
    const file = path.join(sandbox.dir, '.holodeck', 'index', 'test-agent.sqlite');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'not a database, '.repeat(16));
    expect(await issuesOf(ingest(OPENAI_AGENT()))).toEqual([
      `9:5 tools[0]: tool handbook: cannot open the embedded index ${file}: file is not a database | check that ${path.dirname(file)} can be written; the index is made from the sources, so a damaged one can be deleted and rebuilt with \`holodeck ingest\``,
    ]);
  });
});
