import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { type FakeOpenAIServer, startFakeOpenAI, waitUntil } from '@holodeck/testkit';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createE2eAgent } from '../support/e2e-agent.js';
import { HOLODECK_BIN, runHolodeckCli } from '../support/run-holodeck-cli.js';

const DIMENSIONS = 64;
let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAI({ embeddingDimensions: DIMENSIONS });
});
afterAll(() => server.close());

const section = (n: number) => `# Section ${n}\n\nParagraph ${n} about topic number ${n} and nothing else.\n`;

/** Rows of each table of the tool's index: files, chunks, float vectors, 1-bit vectors, unit vectors. */
function counts(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    sqliteVec.load(db);
    const one = (query: string) => (db.prepare(query).get() as { n: number }).n;
    const { id } = db.prepare('SELECT id FROM collections').get() as { id: number };
    return {
      files: one('SELECT count(*) AS n FROM files'),
      chunks: one('SELECT count(*) AS n FROM chunks'),
      vectors: one(`SELECT count(*) AS n FROM vec_${id}`),
      bits: one(`SELECT count(*) AS n FROM vecbits_${id}`),
      units: one(`SELECT count(*) AS n FROM vecunit_${id}`),
    };
  } finally {
    db.close();
  }
}

// A holodeck process killed (SIGKILL) in the middle of an ingest: every file is written in one
// transaction with its chunks, vectors and quantized vectors, so what it leaves is an index in
// step with itself, and the next ingest takes the stale lock over and embeds only what is missing.
describe('an ingest killed mid-way', () => {
  it('leaves a usable index, in step, that the next ingest completes', async () => {
    const files = Object.fromEntries(Array.from({ length: 6 }, (_, n) => [`docs/a-${n}.md`, section(n)]));
    const agent = createE2eAgent('http://127.0.0.1:9', {
      config: {
        model: { provider: 'openai', name: 'gpt-4o', endpoint: server.baseUrl },
        tools: [
          {
            type: 'hierarchical_document',
            name: 'handbook',
            description: 'Company handbook',
            source: './docs',
            vector_index: 'quantized',
          },
        ],
      },
      files,
      env: { OPENAI_API_KEY: 'sk-openai' },
    });
    const first = await runHolodeckCli(['ingest', agent.file], agent.env);
    expect(first.stderr).toContain('handbook: indexed a-5.md');
    expect(first.code).toBe(0);
    const index = path.join(agent.directory, '.holodeck', 'index', 'e2e-agent.sqlite');
    expect(counts(index)).toEqual({ files: 6, chunks: 6, vectors: 6, bits: 6, units: 6 });

    for (let n = 6; n < 26; n++) writeFileSync(path.join(agent.directory, `docs/b-${n}.md`), section(n));
    // Three requests answer, the fourth hangs (then the fake answers every other at once): the
    // process is killed once the files answered are written, while it waits on the hung one.
    const vector = Array.from({ length: DIMENSIONS }, (_, n) => Math.cos(n));
    server.scriptEmbeddings(
      ...[1, 2, 3].map((n) => ({ type: 'embeddings' as const, label: `file ${n}`, vectors: [vector] })),
      {
        type: 'api-error',
        label: 'hangs',
        status: 500,
        error: { message: 'late', type: 'server_error', param: null, code: null },
        delayMs: 600_000,
      },
    );
    const child = spawn(process.execPath, [HOLODECK_BIN, 'ingest', agent.file], {
      env: { NO_COLOR: '1', ...agent.env },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    await waitUntil(() => counts(index).files >= 9, { timeoutMs: 60_000, what: 'three new files written' });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const left = counts(index);
    expect(left.files).toBeGreaterThanOrEqual(9);
    expect(left.files).toBeLessThan(26);
    expect(left).toEqual({
      files: left.files,
      chunks: left.files,
      vectors: left.files,
      bits: left.files,
      units: left.files,
    });

    const before = server.embeddingsRequests.length;
    const again = await runHolodeckCli(['ingest', agent.file], agent.env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      `handbook: 26 files (${26 - left.files} indexed, ${left.files} unchanged, 0 removed), 26 chunks, ${26 - left.files} embedded`,
    );
    expect(server.embeddingsRequests.length - before).toBe(26 - left.files);
    expect(counts(index)).toEqual({ files: 26, chunks: 26, vectors: 26, bits: 26, units: 26 });
  }, 180_000);
});
