import path from 'node:path';
import type { FieldPath, LoadedAgent } from '../../config/index.js';
import { ConfigError, type ConfigIssue } from '../../errors.js';
import {
  EmbeddingDimensionError,
  EmbeddingsClient,
  type EmbeddingsClientOptions,
} from './embed/embeddings-client.js';
import { resolveEmbeddingSettings } from './embed/resolve-embedding-settings.js';
import { type IngestEvent, type IngestReport, ingestCollection } from './ingest/ingest-collection.js';
import { listSourceFiles } from './ingest/list-source-files.js';
import type { RetrievalToolEntry } from './retrieval-tool-entries.js';
import type { RetrievalStore } from './store/retrieval-store.js';

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
  const dotted = fieldPath.reduce<string>(
    (result, part) => (typeof part === 'number' ? `${result}[${part}]` : result ? `${result}.${part}` : part),
    '',
  );
  return {
    file: agent.file,
    ...(agent.locate ? agent.locate(fieldPath) : {}),
    path: dotted,
    message,
    ...(hint ? { hint } : {}),
  };
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
        if (database.provider === 'postgres') {
          const { openPostgresStore } = await import('./store/open-postgres-store.js');
          store = await openPostgresStore(database.connection_string).catch((error: unknown) => {
            throw new ConfigError([
              issueAt(
                agent,
                ['tools', index, 'database', 'connection_string'],
                `tool ${config.name}: ${error instanceof Error ? error.message : String(error)}`,
                'check the server is running and reachable, and the user, password and database in connection_string',
              ),
            ]);
          });
        } else {
          const { SqliteRetrievalStore } = await import('./store/sqlite-retrieval-store.js');
          store = new SqliteRetrievalStore(embeddedIndexFile(agent));
        }
        stores.set(key, store);
      }
      const collection = `${agent.config.name}/${config.name}`;
      let report: IngestReport;
      try {
        report = await ingestCollection({
          store,
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
        const configured = config.embedding_dimensions !== undefined;
        throw new ConfigError([
          issueAt(
            agent,
            ['tools', index, configured ? 'embedding_dimensions' : 'embedding_model'],
            configured
              ? `tool ${config.name}: embedding model ${error.model} returned vectors of ${error.actual} dimensions, but embedding_dimensions is ${error.expected}`
              : `tool ${config.name}: embedding model ${error.model} returned vectors of ${error.actual} dimensions, but the index was built with ${error.expected}`,
            configured
              ? `set embedding_dimensions: ${error.actual}, or use a model that returns ${error.expected}-dimension vectors`
              : rebuildHint(agent),
          ),
        ]);
      }
      opened.push({ entry, store, collection, client, report });
    }
  } catch (error) {
    await Promise.all([...stores.values()].map((store) => store.close().catch(() => {})));
    throw error;
  }
  return { tools: opened, stores: [...stores.values()] };
}
