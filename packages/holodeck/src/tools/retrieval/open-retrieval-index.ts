import path from 'node:path';
import { type FieldPath, formatFieldPath, type LoadedAgent } from '../../config/index.js';
import { AgentSessionError, ConfigError, type ConfigIssue } from '../../errors.js';
import { errorMessage } from '../../support.js';
import {
  EmbeddingDimensionError,
  EmbeddingsClient,
  type EmbeddingsClientOptions,
} from './embed/embeddings-client.js';
import { resolveEmbeddingSettings } from './embed/resolve-embedding-settings.js';
import { type IngestEvent, type IngestReport, ingestCollection } from './ingest/ingest-collection.js';
import { listSourceFiles } from './ingest/list-source-files.js';
import type { RetrievalToolConfig, RetrievalToolEntry } from './retrieval-tool-entries.js';
import type { RetrievalStore } from './store/retrieval-store.js';

/**
 * The database of an index failed while a tool was ingested into it (locked by another program,
 * server gone, disk full, file damaged): the ingest stopped there. Like a failed embeddings
 * request, a failure of the run, not of agent.yaml (`holodeck ingest` exits 3).
 */
export class IndexDatabaseError extends AgentSessionError {
  override name = 'IndexDatabaseError';
  constructor(tool: string, location: string, cause: unknown) {
    const reason = errorMessage(cause);
    super(`tool ${tool}: the index at ${location} failed during ingestion: ${reason}`, { cause });
    // --debug prints the stack: show where the database call failed, not where it was wrapped.
    if (cause instanceof Error && cause.stack)
      this.stack = `${this.name}: ${this.message}\nCaused by: ${cause.stack}`;
  }
}

/**
 * `store` for one tool's ingest: whatever its database calls throw becomes an IndexDatabaseError
 * naming the tool and the index. What the ingest itself throws inside the lock (the embeddings
 * API, a vector of the wrong size) passes through as it is.
 */
function reportingDatabaseFailures(store: RetrievalStore, tool: string): RetrievalStore {
  const failure = (error: unknown): never => {
    throw error instanceof IndexDatabaseError ? error : new IndexDatabaseError(tool, store.location, error);
  };
  return {
    location: store.location,
    async withIngestLock(collection, onWait, work) {
      let workFailed = false;
      try {
        return await store.withIngestLock(collection, onWait, async () => {
          try {
            return await work();
          } catch (error) {
            workFailed = true;
            throw error;
          }
        });
      } catch (error) {
        if (workFailed) throw error;
        return failure(error);
      }
    },
    getMeta: (collection) => store.getMeta(collection).catch(failure),
    resetCollection: (collection, meta) => store.resetCollection(collection, meta).catch(failure),
    setStemming: (collection, stemming) => store.setStemming(collection, stemming).catch(failure),
    listFiles: (collection) => store.listFiles(collection).catch(failure),
    putFile: (collection, source, hash, chunks) =>
      store.putFile(collection, source, hash, chunks).catch(failure),
    deleteFile: (collection, source) => store.deleteFile(collection, source).catch(failure),
    countChunks: (collection) => store.countChunks(collection).catch(failure),
    prepareVectorIndex: (collection, setting, options) =>
      store.prepareVectorIndex(collection, setting, options).catch(failure),
    searchSemantic: (collection, vector, limit, options) =>
      store.searchSemantic(collection, vector, limit, options).catch(failure),
    searchKeyword: (collection, terms, limit) => store.searchKeyword(collection, terms, limit).catch(failure),
    close: () => store.close().catch(failure),
  };
}

/**
 * The agent.yaml field a tool's embedding model came from, for messages about its vectors: the
 * tool's `embedding_model`, else `embedding_provider` (its `deployment` on azure_openai, else its
 * `name`), else the agent's `model.provider`, whose default embedding model it is.
 */
function embeddingModelSource(
  agent: LoadedAgent,
  config: RetrievalToolConfig,
  index: number,
): { field: FieldPath; note: string } {
  if (config.embedding_model !== undefined) return { field: ['tools', index, 'embedding_model'], note: '' };
  const explicit = agent.config.embedding_provider;
  if (explicit) {
    const deployment = explicit.provider === 'azure_openai' && explicit.deployment !== undefined;
    return { field: ['embedding_provider', deployment ? 'deployment' : 'name'], note: '' };
  }
  return {
    field: ['model', 'provider'],
    note: ` (the default embedding model of provider ${agent.config.model.provider})`,
  };
}

/** How to rebuild an agent's indexes, for messages about vectors of the wrong size. */
export function rebuildHint(agent: LoadedAgent): string {
  const relative = path.relative(process.cwd(), agent.file);
  const file = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : agent.file;
  return `re-ingest every file: \`holodeck ingest --force ${file}\`, or --force-ingest on chat or test`;
}

/** Where an agent's embedded index is: `<agent folder>/.holodeck/index/<agent name>.sqlite`. */
export function embeddedIndexFile(agent: LoadedAgent): string {
  return path.join(agent.directory, '.holodeck', 'index', `${agent.config.name}.sqlite`);
}

/** A retrieval tool whose index is up to date, ready to search. */
export interface OpenedRetrievalTool {
  entry: RetrievalToolEntry;
  store: RetrievalStore;
  collection: string;
  client: EmbeddingsClient;
  report: IngestReport;
}

/** Options of `openRetrievalIndexes`. */
export interface OpenRetrievalOptions {
  /** Rebuild every index (`--force`, `--force-ingest`). */
  force?: boolean;
  onEvent?: (event: IngestEvent) => void;
  signal?: AbortSignal;
  /** Embeddings client tuning (tests lower the retry delays). */
  embeddings?: EmbeddingsClientOptions;
}

function issueAt(agent: LoadedAgent, fieldPath: FieldPath, message: string, hint?: string): ConfigIssue {
  return {
    file: agent.file,
    ...(agent.locate ? agent.locate(fieldPath) : {}),
    path: formatFieldPath(fieldPath),
    message,
    ...(hint ? { hint } : {}),
  };
}

/** The store a tool's `database` names (the agent's embedded SQLite file by default); a failure is located. */
async function openStore(agent: LoadedAgent, entry: RetrievalToolEntry): Promise<RetrievalStore> {
  const { config, index } = entry;
  const database = config.database ?? { provider: 'sqlite' as const };
  if (database.provider === 'postgres') {
    const { openPostgresStore } = await import('./store/open-postgres-store.js');
    return await openPostgresStore(database.connection_string).catch((error: unknown) => {
      throw new ConfigError([
        issueAt(
          agent,
          ['tools', index, 'database', 'connection_string'],
          `tool ${config.name}: ${errorMessage(error)}`,
          'check the server is running and reachable, and the user, password and database in connection_string',
        ),
      ]);
    });
  }
  const { SqliteRetrievalStore } = await import('./store/sqlite-retrieval-store.js');
  const file = embeddedIndexFile(agent);
  try {
    return new SqliteRetrievalStore(file);
  } catch (error) {
    throw new ConfigError([
      issueAt(
        agent,
        config.database ? ['tools', index, 'database'] : ['tools', index],
        `tool ${config.name}: cannot open the embedded index ${file}: ${errorMessage(error)}`,
        `check that ${path.dirname(file)} can be written; the index is made from the sources, so a damaged one can be deleted and rebuilt with \`holodeck ingest\``,
      ),
    ]);
  }
}

/** Vectors of another size than the setting or the index: where to change what. */
function dimensionMismatch(
  agent: LoadedAgent,
  entry: RetrievalToolEntry,
  error: EmbeddingDimensionError,
): ConfigError {
  const { config, index } = entry;
  if (config.embedding_dimensions !== undefined) {
    return new ConfigError([
      issueAt(
        agent,
        ['tools', index, 'embedding_dimensions'],
        `tool ${config.name}: embedding model ${error.model} returned vectors of ${error.actual} dimensions, but embedding_dimensions is ${error.expected}`,
        `set embedding_dimensions: ${error.actual}, or use a model that returns ${error.expected}-dimension vectors`,
      ),
    ]);
  }
  const source = embeddingModelSource(agent, config, index);
  return new ConfigError([
    issueAt(
      agent,
      source.field,
      `tool ${config.name}: embedding model ${error.model}${source.note} returned vectors of ${error.actual} dimensions, but the index was built with ${error.expected}`,
      rebuildHint(agent),
    ),
  ]);
}

/**
 * Opens the stores of an agent's retrieval tools (one embedded SQLite file per agent, one
 * PostgreSQL connection per connection string) and ingests each tool, incrementally. Problems
 * only a start-up can see (an unreachable database, vectors of the wrong size) are ConfigErrors
 * located in agent.yaml. On any failure, the stores opened so far are closed.
 */
export async function openRetrievalIndexes(
  agent: LoadedAgent,
  entries: readonly RetrievalToolEntry[],
  options: OpenRetrievalOptions = {},
): Promise<{ tools: OpenedRetrievalTool[]; stores: RetrievalStore[] }> {
  const stores = new Map<string, RetrievalStore>();
  const opened: OpenedRetrievalTool[] = [];
  try {
    for (const entry of entries) {
      const { config, index } = entry;
      const listing = await listSourceFiles(config.source, config.include, config.exclude).catch(
        (error: unknown) => {
          throw new ConfigError([
            issueAt(
              agent,
              ['tools', index, 'source'],
              `${config.source} cannot be read: ${error instanceof Error ? error.message : error}`,
            ),
          ]);
        },
      );
      const client = new EmbeddingsClient(resolveEmbeddingSettings(agent, config, index), options.embeddings);
      const database = config.database ?? { provider: 'sqlite' as const };
      const key = database.provider === 'postgres' ? `postgres:${database.connection_string}` : 'sqlite';
      let store = stores.get(key);
      if (!store) {
        store = await openStore(agent, entry);
        stores.set(key, store);
      }
      const collection = `${agent.config.name}/${config.name}`;
      let report: IngestReport;
      try {
        report = await ingestCollection({
          store: reportingDatabaseFailures(store, config.name),
          collection,
          config,
          listing,
          client,
          ...(options.force ? { force: true } : {}),
          ...(options.onEvent ? { onEvent: options.onEvent } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        });
      } catch (error) {
        if (!(error instanceof EmbeddingDimensionError)) throw error;
        throw dimensionMismatch(agent, entry, error);
      }
      opened.push({ entry, store, collection, client, report });
    }
  } catch (error) {
    await Promise.all([...stores.values()].map((store) => store.close().catch(() => {})));
    throw error;
  }
  return { tools: opened, stores: [...stores.values()] };
}
