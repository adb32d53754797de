#!/usr/bin/env node
// @ts-check
// Retrieval tools on the embedded index (SQLite + sqlite-vec + FTS5), at 1k, 10k and 100k chunks of a
// generated corpus, side by side in one run with the same queries run directly against sqlite-vec and
// FTS5 on the same data (the floor). Embeddings come from the fake OpenAI-compatible server of
// @holodeck/testkit (0 ms latency, 384 dimensions) in its own process. See bench/README.md.
//
//   npm run build                                  # the bench imports packages/holodeck/dist
//   node bench/retrieval.mjs                       # 1000,10000,100000 chunks, 200 queries per mode
//   node bench/retrieval.mjs --sizes 1000,10000 --queries 100 --latency-ms 0
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { integerOption, median, table } from './bench-format.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '../packages/holodeck/dist');
const DIMENSIONS = 384;
/** Sections (one chunk each) per generated markdown file. */
const SECTIONS_PER_FILE = 10;
/** Issue 10's targets. */
const TARGET_P99_MS = 20;
const TARGET_RATIO = 1.3;
const TARGET_REINGEST_S = 2;

class BenchError extends Error {}

// ------------------------------------------------------------------------------------ corpus

/** A deterministic pseudo-random generator (mulberry32), so every run indexes the same corpus. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The corpus's words: the distinct words of this repository's README.md, CONTRIBUTING.md and docs
 * (~1,500, real English and technical words, so the tokenizer meets text like a user's). Picked with
 * a Zipf-like skew: some are common, most are rare, as in text. The corpus changes when those files
 * do; compare ratios of one run, not absolute numbers across commits.
 */
const VOCABULARY = (() => {
  const files = [
    path.join(here, '../README.md'),
    path.join(here, '../CONTRIBUTING.md'),
    ...readdirSync(path.join(here, '../docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => path.join(here, '../docs', name)),
  ];
  const text = files
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n')
    .toLowerCase();
  const words = [...new Set(text.match(/[a-z]{3,}/g) ?? [])].sort();
  // A fixed shuffle, so the most common words are not the alphabetically first.
  const next = random(7);
  for (let index = words.length - 1; index > 0; index--) {
    const other = Math.floor(next() * (index + 1));
    [words[index], words[other]] = [words[other], words[index]];
  }
  return words;
})();
const word = (next) => VOCABULARY[Math.floor(VOCABULARY.length * next() ** 3)];
const words = (next, count) => Array.from({ length: count }, () => word(next)).join(' ');

/** Writes `chunks / 10` markdown files of 10 sections (~60 words each: one chunk per section). */
function writeCorpus(folder, chunks) {
  const next = random(chunks);
  const files = Math.ceil(chunks / SECTIONS_PER_FILE);
  for (let file = 0; file < files; file++) {
    const sub = path.join(folder, `part-${String(Math.floor(file / 500)).padStart(3, '0')}`);
    mkdirSync(sub, { recursive: true });
    const sections = Array.from(
      { length: SECTIONS_PER_FILE },
      (_, index) => `## ${words(next, 3)} ${index}\n\n${words(next, 60)}.`,
    );
    writeFileSync(
      path.join(sub, `doc-${file}.md`),
      `# Document ${file} ${words(next, 2)}\n\n${sections.join('\n\n')}\n`,
    );
  }
}

/** Queries of 3 words from the corpus's vocabulary (not all match: some are rare). */
function queries(count) {
  const next = random(99);
  return Array.from({ length: count }, () => words(next, 3));
}

// ------------------------------------------------------------------------------------ processes

/** Runs `node bench/retrieval.mjs --role <role> …` and returns the JSON it prints last. */
function child(args) {
  return new Promise((resolve, reject) => {
    const process_ = spawn(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    process_.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    process_.on('error', reject);
    process_.on('close', (code) => {
      if (code !== 0) return reject(new BenchError(`${args.join(' ')} exited ${code}`));
      try {
        resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? ''));
      } catch {
        reject(new BenchError(`${args.join(' ')} printed no result: ${stdout.slice(-500)}`));
      }
    });
  });
}

/** The fake embeddings server in a process of its own, so serving vectors costs the bench nothing. */
async function startEmbeddingsServer(latencyMs) {
  const script = `
    import { startFakeOpenAI } from '@holodeck/testkit';
    const server = await startFakeOpenAI({ embeddingDimensions: ${DIMENSIONS}, latencyMs: ${latencyMs} });
    console.log(server.baseUrl);
    process.stdin.on('data', (line) => {
      if (String(line).trim() === 'count') console.log(String(server.embeddingsRequests.length));
    });
    process.stdin.on('end', () => server.close().then(() => process.exit(0)));`;
  const server = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: here,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = [];
  let waiting;
  let buffer = '';
  server.stdout.on('data', (chunk) => {
    buffer += chunk;
    for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
      lines.push(buffer.slice(0, at));
      buffer = buffer.slice(at + 1);
      waiting?.();
    }
  });
  const nextLine = async () => {
    const deadline = Date.now() + 30_000;
    while (!lines.length) {
      if (Date.now() > deadline)
        throw new BenchError('the fake embeddings server did not answer within 30 s');
      await new Promise((resolve) => {
        waiting = resolve;
        setTimeout(resolve, 200);
      });
    }
    return lines.shift();
  };
  const baseUrl = await nextLine();
  return {
    baseUrl,
    async requests() {
      server.stdin.write('count\n');
      return Number(await nextLine());
    },
    stop: () =>
      new Promise((resolve) => {
        server.on('close', resolve);
        server.stdin.end();
      }),
  };
}

// ------------------------------------------------------------------------------------ roles

async function loadHolodeck() {
  const load = (file) => import(path.join(dist, file));
  const [
    { loadAgent },
    { SqliteRetrievalStore },
    { ingestCollection },
    { listSourceFiles },
    { EmbeddingsClient },
    { resolveEmbeddingSettings },
    { searchIndex },
    { formatResults },
    { searchSettingsOf },
    { embeddedIndexFile },
  ] = await Promise.all([
    load('load-agent.js'),
    load('tools/retrieval/store/sqlite-retrieval-store.js'),
    load('tools/retrieval/ingest/ingest-collection.js'),
    load('tools/retrieval/ingest/list-source-files.js'),
    load('tools/retrieval/embed/embeddings-client.js'),
    load('tools/retrieval/embed/resolve-embedding-settings.js'),
    load('tools/retrieval/search/search-index.js'),
    load('tools/retrieval/search/format-results.js'),
    load('tools/retrieval/retrieval-tool-settings.js'),
    load('tools/retrieval/open-retrieval-index.js'),
  ]);
  return {
    loadAgent,
    SqliteRetrievalStore,
    ingestCollection,
    listSourceFiles,
    EmbeddingsClient,
    resolveEmbeddingSettings,
    searchIndex,
    formatResults,
    searchSettingsOf,
    embeddedIndexFile,
  };
}

/**
 * An EmbeddingsClient that measures the wall time during which at least one embed() call is in
 * flight (ingest runs several files at once, so their calls overlap).
 */
function timedClient(holodeck, settings) {
  const client = new holodeck.EmbeddingsClient(settings);
  client.embeddingMs = 0;
  let active = 0;
  let since = 0;
  const embed = client.embed.bind(client);
  client.embed = async (...args) => {
    if (active++ === 0) since = performance.now();
    try {
      return await embed(...args);
    } finally {
      if (--active === 0) client.embeddingMs += performance.now() - since;
    }
  };
  return client;
}

/** Ingests the agent's one tool (as `holodeck ingest` does), then again with nothing changed. */
async function ingestRole(agentFile) {
  const holodeck = await loadHolodeck();
  const agent = await holodeck.loadAgent(agentFile);
  const config = agent.config.tools[0];
  const store = new holodeck.SqliteRetrievalStore(holodeck.embeddedIndexFile(agent));
  const collection = `${agent.config.name}/${config.name}`;
  const run = async () => {
    const client = timedClient(holodeck, holodeck.resolveEmbeddingSettings(agent, config, 0));
    const started = performance.now();
    const listing = await holodeck.listSourceFiles(config.source, config.include, config.exclude);
    const report = await holodeck.ingestCollection({ store, collection, config, listing, client });
    return {
      ms: performance.now() - started,
      embeddingMs: client.embeddingMs,
      requests: client.requests,
      report,
    };
  };
  const first = await run();
  const again = await run();
  await store.close();
  return {
    chunks: first.report.chunks,
    ingestMs: first.ms,
    embeddingMs: first.embeddingMs,
    embeddingRequests: first.requests,
    reingestMs: again.ms,
    reingestRequests: again.requests,
    reingestEmbedded: again.report.embedded,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

/** The same three searches as raw SQL on the index file holodeck built: the floor. */
function bareSearcher(Database, sqliteVec, file, collection) {
  const db = new Database(file, { readonly: true });
  sqliteVec.load(db);
  const { id } = db.prepare('SELECT id FROM collections WHERE name = ?').get(collection);
  const semantic = db.prepare(
    `SELECT c.rowid, c.source, c.chunk_id, c.title, c.heading_path, c.section_id, c.page, c.text, c.metadata, v.distance
     FROM (SELECT rowid, distance FROM vec_${id} WHERE embedding MATCH ? AND k = ?) v
     JOIN chunks c ON c.rowid = v.rowid ORDER BY v.distance`,
  );
  const keyword = db.prepare(
    `SELECT c.rowid, c.source, c.chunk_id, c.title, c.heading_path, c.section_id, c.page, c.text, c.metadata, f.rank
     FROM (SELECT rowid, bm25(fts_${id}, 3.0, 2.0, 1.0) AS rank FROM fts_${id}
           WHERE fts_${id} MATCH ? ORDER BY rank LIMIT ?) f
     JOIN chunks c ON c.rowid = f.rowid ORDER BY f.rank`,
  );
  // The distinct words, as holodeck's queryTerms() takes them.
  const terms = (query) => [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
  const fts = (query) =>
    terms(query)
      .map((term) => `"${term}"`)
      .join(' OR ');
  const render = (rows) =>
    rows.map((row, index) => `[${index + 1}] ${row.source} ${row.chunk_id}\n${row.text}`).join('\n\n');
  return {
    semanticRows: (vector, k) => semantic.all(vector, k),
    keywordRows: (query, k) => keyword.all(fts(query), k),
    semantic: (vector, k) => render(semantic.all(vector, k)),
    keyword: (query, k) => render(keyword.all(fts(query), k)),
    hybrid: (query, vector, k) => {
      const scores = new Map();
      const add = (rows) =>
        rows.forEach((row, index) => {
          const known = scores.get(row.rowid);
          scores.set(row.rowid, { row, score: (known?.score ?? 0) + 1 / (60 + index + 1) });
        });
      add(semantic.all(vector, 50));
      add(keyword.all(fts(query), 50));
      return render(
        [...scores.values()]
          .sort((a, b) => b.score - a.score)
          .slice(0, k)
          .map((entry) => entry.row),
      );
    },
    close: () => db.close(),
  };
}

/**
 * The share of holodeck's top k that is as good as the bare (exact) top k: a hit counts when its
 * distance (semantic) or BM25 rank (keyword) is no worse than the bare k-th, so ties count either way.
 */
function agreement(mode, hits, bare, query, vector, k) {
  const exact = mode === 'semantic' ? bare.semanticRows(vector, k) : bare.keywordRows(query, k);
  if (!exact.length) return hits.length ? 0 : 1;
  const kth = mode === 'semantic' ? exact.at(-1).distance : exact.at(-1).rank;
  // The index keeps unit vectors under L2: a cosine score s is the distance √(2 − 2s).
  const worse = (hit) => (mode === 'semantic' ? Math.sqrt(Math.max(0, 2 - 2 * hit.score)) : -hit.score);
  const good = hits.filter((hit) => worse(hit) <= kth + 1e-4);
  return Math.min(good.length, exact.length) / exact.length;
}

/** Query latency per mode, holodeck's query layer and the bare SQL alternating query by query. */
async function queryRole(agentFile, count) {
  const holodeck = await loadHolodeck();
  const { default: Database } = await import('better-sqlite3');
  const sqliteVec = await import('sqlite-vec');
  const agent = await holodeck.loadAgent(agentFile);
  const config = agent.config.tools[0];
  const file = holodeck.embeddedIndexFile(agent);
  const collection = `${agent.config.name}/${config.name}`;
  const store = new holodeck.SqliteRetrievalStore(file);
  const bare = bareSearcher(Database, sqliteVec, file, collection);
  const client = new holodeck.EmbeddingsClient(holodeck.resolveEmbeddingSettings(agent, config, 0));
  const texts = queries(count);
  // The query vectors, once: both sides search with the same vectors, so neither pays the HTTP call.
  const vectors = await client.embed(texts);
  const topK = config.top_k;
  const results = {};
  for (const mode of ['semantic', 'keyword', 'hybrid']) {
    const settings = { ...holodeck.searchSettingsOf(config), mode };
    const ours = [];
    const floor = [];
    const agreements = [];
    for (const [index, query] of texts.entries()) {
      const vector = vectors[index];
      // Warm-up query of each mode is not counted.
      const rounds = index === 0 ? 2 : 1;
      for (let round = 0; round < rounds; round++) {
        let started = performance.now();
        const hits = await holodeck.searchIndex(store, collection, query, async () => vector, settings);
        holodeck.formatResults(hits);
        const oursMs = performance.now() - started;
        if (round === 0 && mode !== 'hybrid')
          agreements.push(agreement(mode, hits, bare, query, vector, topK));
        started = performance.now();
        if (mode === 'semantic') bare.semantic(vector, topK);
        else if (mode === 'keyword') bare.keyword(query, topK);
        else bare.hybrid(query, vector, topK);
        const floorMs = performance.now() - started;
        if (round === rounds - 1) {
          ours.push(oursMs);
          floor.push(floorMs);
        }
      }
    }
    results[mode] = {
      ours,
      floor,
      recall: agreements.length ? agreements.reduce((a, b) => a + b, 0) / agreements.length : null,
    };
  }
  // End to end as the model's call runs it: embedding the query over HTTP included.
  const { retrievalSearchTool } = await import(path.join(dist, 'tools/retrieval/retrieval-search-tool.js'));
  const tool = retrievalSearchTool(config, store, collection, client);
  const toolMs = [];
  for (const query of texts.slice(0, Math.min(50, texts.length))) {
    const started = performance.now();
    const output = await tool.execute({ query });
    if (output.isError) throw new BenchError(`the search tool failed: ${output.text}`);
    toolMs.push(performance.now() - started);
  }
  bare.close();
  await store.close();
  return { results, toolMs };
}

// ------------------------------------------------------------------------------------ report

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const ms = (value) => value.toFixed(value < 10 ? 2 : 1);

async function main() {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '1000,10000,100000' },
      queries: { type: 'string', default: '200' },
      'latency-ms': { type: 'string', default: '0' },
      role: { type: 'string' },
      agent: { type: 'string' },
      keep: { type: 'boolean', default: false },
    },
  });
  if (values.role === 'ingest') return console.log(JSON.stringify(await ingestRole(values.agent)));
  if (values.role === 'query')
    return console.log(
      JSON.stringify(await queryRole(values.agent, integerOption(values, 'queries', 10, BenchError))),
    );

  const sizes = values.sizes.split(',').map((size) => Number(size));
  if (sizes.some((size) => !Number.isInteger(size) || size < 10))
    throw new BenchError('--sizes: integers >= 10');
  const queryCount = integerOption(values, 'queries', 10, BenchError);
  const latencyMs = integerOption(values, 'latency-ms', 0, BenchError);
  const root = mkdtempSync(path.join(os.tmpdir(), 'holodeck-bench-retrieval-'));
  const server = await startEmbeddingsServer(latencyMs);
  console.error(
    `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, ` +
      `Node ${process.version}, load ${os
        .loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}; ` +
      `embeddings: fake server, ${latencyMs} ms, ${DIMENSIONS} dimensions; ${queryCount} queries per mode`,
  );
  const ingestRows = [];
  const queryRows = [];
  const verdicts = [];
  try {
    for (const size of sizes) {
      const folder = path.join(root, String(size));
      writeCorpus(path.join(folder, 'docs'), size);
      const agentFile = path.join(folder, 'agent.yaml');
      writeFileSync(
        agentFile,
        [
          `name: bench-${size}`,
          'model: { provider: openai, name: gpt-4o }',
          'instructions: { inline: Bench. }',
          `embedding_provider: { provider: openai, name: fake-embedding, endpoint: "${server.baseUrl}", api_key: bench }`,
          'tools:',
          '  - { type: hierarchical_document, name: docs, description: Generated corpus, source: ./docs, top_k: 5 }',
          '',
        ].join('\n'),
      );
      console.error(`${size} chunks: ingesting…`);
      const before = await server.requests();
      const ingest = await child(['--role', 'ingest', '--agent', agentFile]);
      const served = (await server.requests()) - before;
      if (ingest.chunks !== size)
        throw new BenchError(`expected ${size} chunks, the index holds ${ingest.chunks}`);
      if (served !== ingest.embeddingRequests)
        throw new BenchError(
          `the server saw ${served} embedding requests, the client sent ${ingest.embeddingRequests}`,
        );
      const outside = ingest.ingestMs - ingest.embeddingMs;
      ingestRows.push([
        size,
        `${Math.round(size / (ingest.ingestMs / 1000))}/s`,
        `${(ingest.ingestMs / 1000).toFixed(1)} s`,
        `${(outside / 1000).toFixed(1)} s (${Math.round((100 * outside) / ingest.ingestMs)}%)`,
        ingest.embeddingRequests,
        `${ingest.reingestMs.toFixed(0)} ms`,
        `${ingest.reingestRequests} requests, ${ingest.reingestEmbedded} embedded`,
        `${Math.round(ingest.peakRssMb)} MB`,
      ]);
      if (size === 10_000)
        verdicts.push(
          `re-ingest of unchanged 10k chunks: ${ingest.reingestMs.toFixed(0)} ms, ${ingest.reingestRequests} embedding requests (target ≤ ${TARGET_REINGEST_S} s and 0): ${ingest.reingestMs <= TARGET_REINGEST_S * 1000 && ingest.reingestRequests === 0 ? 'PASS' : 'MISS'}`,
        );
      console.error(`${size} chunks: querying…`);
      const { results, toolMs } = await child([
        '--role',
        'query',
        '--agent',
        agentFile,
        '--queries',
        String(queryCount),
      ]);
      for (const [mode, { ours, floor, recall }] of Object.entries(results)) {
        const ratio = median(ours) / median(floor);
        const p99Ratio = percentile(ours, 99) / percentile(floor, 99);
        queryRows.push([
          size,
          mode,
          ms(median(ours)),
          ms(percentile(ours, 99)),
          ms(median(floor)),
          ms(percentile(floor, 99)),
          ratio.toFixed(2),
          p99Ratio.toFixed(2),
          recall === null ? '' : recall.toFixed(3),
        ]);
        if (size === 100_000)
          verdicts.push(
            `${mode} at 100k: p99 ${ms(percentile(ours, 99))} ms (target ≤ ${TARGET_P99_MS}), ${p99Ratio.toFixed(2)}× the bare p99 (target ≤ ${TARGET_RATIO}): ${percentile(ours, 99) <= TARGET_P99_MS && p99Ratio <= TARGET_RATIO ? 'PASS' : 'MISS'}`,
          );
      }
      queryRows.push([
        size,
        'tool call (HTTP embed incl.)',
        ms(median(toolMs)),
        ms(percentile(toolMs, 99)),
        '',
        '',
        '',
        '',
        '',
      ]);
    }
  } finally {
    await server.stop();
    if (!values.keep) rmSync(root, { recursive: true, force: true });
  }
  console.log('\nIngest (holodeck ingest in process; re-ingest = the same call again, nothing changed)\n');
  console.log(
    table(
      [
        'chunks',
        'throughput',
        'ingest',
        'outside embedding',
        'requests',
        're-ingest',
        're-ingest embedding',
        'peak RSS',
      ],
      ingestRows,
    ),
  );
  console.log(
    '\nQuery latency in ms (holodeck searchIndex + formatResults vs the same SQL on the same file; medians and p99;\n' +
      "recall@k: share of holodeck's top k as good as the exact bare top k, ties counted)\n",
  );
  console.log(
    table(
      ['chunks', 'mode', 'p50', 'p99', 'bare p50', 'bare p99', 'p50 ratio', 'p99 ratio', 'recall@5'],
      queryRows,
    ),
  );
  console.log(`\n${verdicts.join('\n')}`);
}

main().catch((error) => {
  console.error(error instanceof BenchError ? `bench: ${error.message}` : error);
  process.exit(1);
});
