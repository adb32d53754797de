import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { errorMessage } from '../../../support.js';
import { embeddingText } from '../chunk/chunk.js';
import type { EmbeddingsClient } from '../embed/embeddings-client.js';
import { parseSourceFile } from '../parse/parse-source-file.js';
import {
  chunkerOf,
  chunkingSignature,
  hnswBuildOf,
  type RetrievalToolConfig,
  recordFieldsOf,
} from '../retrieval-tool-settings.js';
import type { RetrievalStore, VectorIndexInUse } from '../store/retrieval-store.js';
import type { SourceFile, SourceListing } from './list-source-files.js';

/** Files parsed and embedded at once (their embedding requests share the client's concurrency). */
const FILES_AT_ONCE = 4;

/** Something ingest tells as it goes: a file done, or a note (waiting on a lock, a re-embed). */
export type IngestEvent =
  | {
      type: 'file';
      tool: string;
      file: string;
      done: number;
      total: number;
      status: 'unchanged' | 'indexed' | 'failed';
    }
  | { type: 'note'; tool: string; message: string };

/** What one tool's ingest did. */
export interface IngestReport {
  tool: string;
  location: string;
  files: number;
  unchanged: number;
  indexed: number;
  removed: number;
  chunks: number;
  /** Texts sent to the embeddings API. */
  embedded: number;
  /** Files that could not be parsed, with the reason; the others are indexed. */
  failures: { file: string; reason: string }[];
  /** Files no parser reads (listed once). */
  unsupported: string[];
  /** Why the whole index was rebuilt (a changed model or dimension, --force), if it was. */
  rebuilt?: string;
  /** How the collection's semantic search runs from now on (vector_index, auto resolved by size). */
  vectorIndex?: VectorIndexInUse;
}

export interface IngestCollectionOptions {
  store: RetrievalStore;
  /** The collection in the store: `<agent name>/<tool name>`. */
  collection: string;
  config: RetrievalToolConfig;
  listing: SourceListing;
  client: EmbeddingsClient;
  /** Rebuild everything (`--force`). */
  force?: boolean;
  onEvent?: (event: IngestEvent) => void;
  signal?: AbortSignal;
}

type CollectionMeta = Awaited<ReturnType<RetrievalStore['getMeta']>>;
type Emit = (event: IngestEvent) => void;

/** Why every file is embedded again: --force, or a changed model or dimension. */
function rebuildReason(options: IngestCollectionOptions, meta: CollectionMeta): string | undefined {
  const model = options.client.settings.model;
  const wanted = options.client.settings.dimensions;
  if (options.force) return 'a forced re-ingest';
  if (meta && meta.model !== model) return `the embedding model changed from ${meta.model} to ${model}`;
  if (meta && wanted !== undefined && meta.dimensions !== wanted)
    return `embedding_dimensions changed from ${meta.dimensions} to ${wanted}`;
  return undefined;
}

/**
 * Files parsed, chunked, embedded and stored one at a time (several run at once). The collection
 * is (re)created once, by the first file whose vectors give the dimension.
 */
class FileIngest {
  #done = 0;
  #ready: Promise<void> | undefined;
  readonly #signature: string;
  readonly #chunker: ReturnType<typeof chunkerOf>;
  readonly #fields: ReturnType<typeof recordFieldsOf>;

  constructor(
    private readonly options: IngestCollectionOptions,
    private readonly report: IngestReport,
    /** The files the collection holds, with their hashes (none when it is rebuilt). */
    private readonly known: Map<string, string>,
    ready: Promise<void> | undefined,
    private readonly emit: Emit,
  ) {
    this.#ready = ready;
    this.#signature = chunkingSignature(options.config);
    this.#chunker = chunkerOf(options.config);
    this.#fields = recordFieldsOf(options.config);
  }

  #progress(file: string, status: 'unchanged' | 'indexed' | 'failed'): void {
    const { config, listing } = this.options;
    this.emit({
      type: 'file',
      tool: config.name,
      file,
      done: ++this.#done,
      total: listing.files.length,
      status,
    });
  }

  async ingest(file: SourceFile): Promise<void> {
    const { store, collection, client, signal, config } = this.options;
    const report = this.report;
    signal?.throwIfAborted();
    const bytes = await readFile(file.absolute);
    const hash = createHash('sha256').update(this.#signature).update('\0').update(bytes).digest('hex');
    if (this.known.get(file.relative) === hash) {
      report.unchanged++;
      return this.#progress(file.relative, 'unchanged');
    }
    let chunks: ReturnType<ReturnType<typeof chunkerOf>>;
    try {
      chunks = this.#chunker(file.relative, await parseSourceFile(file.absolute, this.#fields));
    } catch (error) {
      report.failures.push({ file: file.relative, reason: errorMessage(error) });
      return this.#progress(file.relative, 'failed');
    }
    const vectors = await client.embed(chunks.map(embeddingText), signal);
    report.embedded += chunks.length;
    if (!this.#ready && client.dimensions !== undefined) {
      this.#ready = store.resetCollection(collection, {
        model: client.settings.model,
        dimensions: client.dimensions,
        stemming: config.stemming,
      });
    }
    // A file without chunks before any vector is known is not recorded: the next ingest reads it again.
    if (this.#ready) {
      await this.#ready;
      await store.putFile(
        collection,
        file.relative,
        hash,
        chunks.map((chunk, index) => ({ ...chunk, embedding: vectors[index] ?? new Float32Array() })),
      );
    }
    report.indexed++;
    this.#progress(file.relative, 'indexed');
  }
}

/**
 * Several files at once, so embedding requests overlap (the client bounds them); the files of a
 * folder are many and small, and one at a time would wait on every request in turn. After a
 * failure no file is started, and the error is thrown once every file in flight has ended, so
 * nothing is written after the lock is released.
 */
async function ingestFiles(files: readonly SourceFile[], ingest: (file: SourceFile) => Promise<void>) {
  let next = 0;
  let failed = false;
  const worker = async () => {
    for (let file = files[next++]; file && !failed; file = files[next++]) {
      try {
        await ingest(file);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const outcomes = await Promise.allSettled(
    Array.from({ length: Math.min(FILES_AT_ONCE, files.length) }, worker),
  );
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
}

/** Removes the files no longer in the source, counts the chunks and readies the vector index. */
async function finishCollection(
  options: IngestCollectionOptions,
  report: IngestReport,
  known: Map<string, string>,
  emit: Emit,
): Promise<void> {
  const { store, collection, config, listing } = options;
  const tool = config.name;
  const present = new Set(listing.files.map((file) => file.relative));
  for (const source of known.keys()) {
    if (present.has(source)) continue;
    await store.deleteFile(collection, source);
    report.removed++;
  }
  report.chunks = await store.countChunks(collection);
  // Keyword search reads no vector: its collections keep the plain vectors only.
  const setting = config.search_mode === 'keyword' ? 'exact' : config.vector_index;
  report.vectorIndex = await store.prepareVectorIndex(collection, setting, {
    ...(config.hnsw ? { hnsw: hnswBuildOf(config.hnsw) } : {}),
    onRebuild: (reason) =>
      emit({
        type: 'note',
        tool,
        message: `rebuilding the HNSW index of tool ${tool}: ${reason} (no file is embedded again; the build reads every stored vector)`,
      }),
  });
}

/**
 * Brings one tool's collection up to date with its source, holding the ingest lock: files whose
 * content hash (bytes + chunking settings) is unchanged are skipped, new and changed ones are
 * parsed, chunked and embedded, deleted ones removed. A changed embedding model or dimension
 * (or `force`) rebuilds the collection and says why.
 */
export async function ingestCollection(options: IngestCollectionOptions): Promise<IngestReport> {
  const { store, config, listing, client, collection } = options;
  const tool = config.name;
  const emit = options.onEvent ?? (() => {});
  return store.withIngestLock(
    collection,
    (message) => emit({ type: 'note', tool, message }),
    async () => {
      const report: IngestReport = {
        tool,
        location: store.location,
        files: listing.files.length,
        unchanged: 0,
        indexed: 0,
        removed: 0,
        chunks: 0,
        embedded: 0,
        failures: [],
        unsupported: listing.unsupported,
      };
      const meta = await store.getMeta(collection);
      const rebuild = rebuildReason(options, meta);
      if (rebuild && meta) {
        report.rebuilt = rebuild;
        emit({ type: 'note', tool, message: `re-embedding every file of tool ${tool}: ${rebuild}` });
      }
      // Same model: its vectors must keep the size the index was built with.
      if (meta && !rebuild) client.dimensions = meta.dimensions;
      const stemming = config.stemming;
      if (meta && !rebuild && (meta.stemming ?? 'none') !== stemming) {
        emit({
          type: 'note',
          tool,
          message: `rebuilding the keyword index of tool ${tool}: stemming changed from ${meta.stemming ?? 'none'} to ${stemming} (no file is embedded again)`,
        });
        await store.setStemming(collection, stemming);
      }
      const known = meta && !rebuild ? await store.listFiles(collection) : new Map<string, string>();
      const ready = meta && !rebuild ? Promise.resolve() : undefined;
      const files = new FileIngest(options, report, known, ready, emit);
      await ingestFiles(listing.files, (file) => files.ingest(file));
      report.failures.sort((a, b) => a.file.localeCompare(b.file));
      await finishCollection(options, report, known, emit);
      return report;
    },
  );
}
