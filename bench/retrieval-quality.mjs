#!/usr/bin/env node
// @ts-check
// Retrieval quality on real third-party documentation: recall@5, MRR@10 and nDCG@10 of keyword,
// semantic and hybrid search, on the embedded SQLite index and on PostgreSQL (PGlite with pgvector),
// with a real sentence-embedding model (Universal Sentence Encoder lite, testkit's real embeddings
// server) and with testkit's hashed bag-of-words vectors. The data set is bench/retrieval-quality/
// (questions.json, corpus/, README.md: how it was made). See bench/README.md.
//
//   npm run build                                   # the bench imports packages/holodeck/dist
//   node bench/retrieval-quality.mjs                # every store × model × mode
//   node bench/retrieval-quality.mjs --stores sqlite --models hashed --json
//   node bench/retrieval-quality.mjs --set rrf_k=20 --set keyword_weight=2   # any search field
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { table } from './bench-format.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '../packages/holodeck/dist');
const dataDir = path.join(here, 'retrieval-quality');
const load = (file) => import(path.join(dist, file));

const { values: options } = parseArgs({
  options: {
    stores: { type: 'string', default: 'sqlite,postgres' },
    models: { type: 'string', default: 'real,hashed' },
    modes: { type: 'string', default: 'keyword,semantic,hybrid' },
    set: { type: 'string', multiple: true, default: [] },
    variant: { type: 'string', multiple: true, default: [] },
    json: { type: 'boolean', default: false },
    misses: { type: 'boolean', default: false },
  },
});
const list = (text) => text.split(',').filter(Boolean);

/** Text compared without Markdown marks, case or spacing, so an evidence phrase is found in any parser's output. */
const normalise = (text) =>
  text
    .replace(/[\\*_`]/g, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();

const questions = JSON.parse(readFileSync(path.join(dataDir, 'questions.json'), 'utf8'));

/** Search settings measured side by side on one ingest: each `--variant a=1,b=x` (default: the `--set` fields). */
const variants = options.variant.length
  ? options.variant.map((text) => text.split(',').filter(Boolean))
  : [options.set];
let current = options.set;

/** `field=value` overrides of the tool's search fields (numbers, booleans or words) of the variant measured. */
function overrides() {
  const fields = {};
  for (const entry of current) {
    const [field, value] = entry.split('=');
    fields[field] =
      value === 'true'
        ? true
        : value === 'false'
          ? false
          : Number.isNaN(Number(value))
            ? value
            : Number(value);
  }
  return fields;
}

async function toolConfig(name, source, mode) {
  const { HierarchicalDocumentToolSchema } = await load('config/schema/retrieval-tool-schema.js');
  const extra =
    mode === 'hybrid'
      ? overrides()
      : Object.fromEntries(
          Object.entries(overrides()).filter(
            ([field]) => !['rrf_k', 'semantic_weight', 'keyword_weight', 'fusion'].includes(field),
          ),
        );
  return HierarchicalDocumentToolSchema.parse({
    type: 'hierarchical_document',
    name,
    description: 'bench',
    source,
    search_mode: mode,
    ...extra,
  });
}

// ------------------------------------------------------------------------------------ stores

/**
 * Kysely's PostgresDialect over PGlite: a pool whose every client is the one PGlite session.
 * @returns {any} the pg-shaped pool Kysely's dialect calls (only connect, query, release, end)
 */
function pglitePool(database) {
  const client = {
    async query(text, parameters) {
      const result = await database.query(text, parameters);
      return { rows: result.rows, rowCount: result.affectedRows ?? 0, command: 'SELECT' };
    },
    release() {},
  };
  return { connect: async () => client, end: async () => {} };
}

async function openStore(kind, folder) {
  if (kind === 'sqlite') {
    const { SqliteRetrievalStore } = await load('tools/retrieval/store/sqlite-retrieval-store.js');
    return new SqliteRetrievalStore(path.join(folder, 'index.sqlite'));
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { vector } = await import('@electric-sql/pglite/vector');
  const { Kysely, PostgresDialect } = await import('kysely');
  const database = new PGlite({ extensions: { vector } });
  await database.waitReady;
  const db = new Kysely({ dialect: new PostgresDialect({ pool: pglitePool(database) }) });
  const { PostgresRetrievalStore } = await load('tools/retrieval/store/postgres-retrieval-store.js');
  const store = await PostgresRetrievalStore.open(db, 'pglite');
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    await database.close();
  };
  return store;
}

// ------------------------------------------------------------------------------------ embeddings

async function startModel(kind) {
  if (kind === 'real') {
    const { startRealEmbeddings, REAL_EMBEDDINGS_MODEL } = await import('@holodeck/testkit/embeddings');
    const server = await startRealEmbeddings();
    return { url: `${server.baseUrl}/embeddings`, model: REAL_EMBEDDINGS_MODEL, close: () => server.close() };
  }
  const { startFakeOpenAI } = await import('@holodeck/testkit');
  const server = await startFakeOpenAI({ embeddingDimensions: 384 });
  return { url: `${server.url}/v1/embeddings`, model: 'hashed-384', close: () => server.close() };
}

async function clientFor(model) {
  const { EmbeddingsClient } = await load('tools/retrieval/embed/embeddings-client.js');
  return new EmbeddingsClient({
    provider: 'openai',
    model: model.model,
    url: model.url,
    headers: { authorization: 'Bearer bench' },
    providerField: 'model',
    secrets: [],
  });
}

// ------------------------------------------------------------------------------------ metrics

/** Ids of the chunks of `config`'s source that answer each question (its source and evidence). */
async function relevantChunks(config) {
  const { listSourceFiles } = await load('tools/retrieval/ingest/list-source-files.js');
  const { parseSourceFile } = await load('tools/retrieval/parse/parse-source-file.js');
  const { chunkerOf } = await load('tools/retrieval/retrieval-tool-settings.js');
  const listing = await listSourceFiles(config.source, undefined, undefined);
  const chunker = chunkerOf(config);
  const chunks = [];
  for (const file of listing.files)
    chunks.push(...chunker(file.relative, await parseSourceFile(file.absolute, { metaFields: [] })));
  return questions.map((question) => {
    const evidence = normalise(question.evidence);
    const ids = chunks
      .filter((chunk) => chunk.source === question.source && normalise(chunk.text).includes(evidence))
      .map((chunk) => chunk.id);
    if (!ids.length)
      throw new Error(
        `no chunk of ${question.source} holds the evidence of "${question.q}": ${question.evidence}`,
      );
    return new Set(ids);
  });
}

function scoreRanking(ids, relevant) {
  const first = ids.findIndex((id) => relevant.has(id));
  const recall5 = first >= 0 && first < 5 ? 1 : 0;
  const mrr10 = first >= 0 && first < 10 ? 1 / (first + 1) : 0;
  let dcg = 0;
  ids.slice(0, 10).forEach((id, index) => {
    if (relevant.has(id)) dcg += 1 / Math.log2(index + 2);
  });
  let ideal = 0;
  for (let index = 0; index < Math.min(10, relevant.size); index++) ideal += 1 / Math.log2(index + 2);
  return { recall5, mrr10, ndcg10: dcg / ideal };
}

// ------------------------------------------------------------------------------------ run

async function measure(storeKind, modelKind) {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'retrieval-quality-'));
  const model = await startModel(modelKind);
  const store = await openStore(storeKind, folder);
  const rows = [];
  const misses = [];
  try {
    const { ingestCollection } = await load('tools/retrieval/ingest/ingest-collection.js');
    const { listSourceFiles } = await load('tools/retrieval/ingest/list-source-files.js');
    const { searchIndex } = await load('tools/retrieval/search/search-index.js');
    const { searchSettingsOf } = await load('tools/retrieval/retrieval-tool-settings.js');
    const client = await clientFor(model);
    // Two tools in one index, as in an agent with several: only `docs` is asked about; `other`
    // (unrelated documentation) must not change its rankings.
    const tools = { docs: path.join(dataDir, 'corpus/docs'), other: path.join(dataDir, 'corpus/other') };
    for (const [name, source] of Object.entries(tools)) {
      const config = await toolConfig(name, source, 'hybrid');
      const listing = await listSourceFiles(source, undefined, undefined);
      const report = await ingestCollection({ store, collection: `bench/${name}`, config, listing, client });
      if (report.failures.length)
        throw new Error(`ingest of ${name} failed: ${JSON.stringify(report.failures)}`);
    }
    const relevant = await relevantChunks(await toolConfig('docs', tools.docs, 'hybrid'));
    const queryVectors = new Map();
    const embedQuery = async (query) => {
      if (!queryVectors.has(query)) queryVectors.set(query, (await client.embed([query]))[0]);
      return queryVectors.get(query);
    };
    for (const variant of variants) {
      current = variant;
      const stemming = (await toolConfig('docs', tools.docs, 'hybrid')).stemming;
      await store.setStemming('bench/docs', stemming);
      for (const mode of list(options.modes)) {
        const settings = { ...searchSettingsOf(await toolConfig('docs', tools.docs, mode)), topK: 10 };
        const totals = { recall5: 0, mrr10: 0, ndcg10: 0 };
        for (const [index, question] of questions.entries()) {
          const hits = await searchIndex(store, 'bench/docs', question.q, embedQuery, settings);
          const scores = scoreRanking(
            hits.map((hit) => hit.chunk.id),
            relevant[index],
          );
          for (const key of Object.keys(totals)) totals[key] += scores[key];
          if (!scores.recall5) misses.push(`${storeKind}/${modelKind}/${mode}: ${question.q}`);
        }
        const n = questions.length;
        rows.push({
          variant: variant.join(',') || 'defaults',
          store: storeKind,
          model: modelKind,
          mode,
          recall5: totals.recall5 / n,
          mrr10: totals.mrr10 / n,
          ndcg10: totals.ndcg10 / n,
        });
      }
    }
  } finally {
    await store.close();
    await model.close();
    rmSync(folder, { recursive: true, force: true });
  }
  return { rows, misses };
}

const results = [];
const allMisses = [];
for (const modelKind of list(options.models)) {
  for (const storeKind of list(options.stores)) {
    const { rows, misses } = await measure(storeKind, modelKind);
    results.push(...rows);
    allMisses.push(...misses);
  }
}
if (options.json) {
  console.log(JSON.stringify({ questions: questions.length, results }, null, 2));
} else {
  console.log(`retrieval quality: ${questions.length} questions over bench/retrieval-quality/corpus/docs\n`);
  console.log(
    table(
      ['variant', 'store', 'model', 'mode', 'recall@5', 'MRR@10', 'nDCG@10'],
      results.map((row) => [
        row.variant,
        row.store,
        row.model,
        row.mode,
        row.recall5.toFixed(3),
        row.mrr10.toFixed(3),
        row.ndcg10.toFixed(3),
      ]),
    ),
  );
  if (options.misses) console.log(`\nnot in the top 5:\n${allMisses.join('\n')}`);
}
