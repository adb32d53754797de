import type { LoadedAgent, WarningCode } from '../../config/index.js';
import type { LoadedTools } from '../holodeck-tool.js';
import { describeIngestProblems } from './describe-ingest-report.js';
import { type OpenRetrievalOptions, openRetrievalIndexes } from './open-retrieval-index.js';
import { retrievalSearchTool } from './retrieval-search-tool.js';
import { retrievalToolEntries } from './retrieval-tool-entries.js';

/** A note for the user from start-up ingestion (files that failed, an index rebuilt). */
export interface RetrievalWarning {
  code: WarningCode;
  message: string;
  /** The agent.yaml setting it is about (e.g. `tools[2].source`), when there is one. */
  path?: string;
}

/** Options of `loadRetrievalTools`. */
export interface LoadRetrievalOptions extends OpenRetrievalOptions {
  /** agent.yaml names of the retrieval tools to load (those `claude.allowed_tools` lets through); default all. */
  only?: readonly string[];
  onWarning?: (warning: RetrievalWarning) => void;
}

/**
 * The agent's retrieval tools as HoloDeckTools (`<name>_search`), with their indexes brought
 * up to date first (quick when nothing changed: files are hashed, nothing is embedded); tools
 * left out by `only` are neither ingested nor offered. Files
 * that failed to parse and rebuilt indexes are reported through `onWarning`. `close()` closes
 * the stores.
 */
export async function loadRetrievalTools(
  agent: LoadedAgent,
  options: LoadRetrievalOptions = {},
): Promise<LoadedTools> {
  const only = options.only ? new Set(options.only) : undefined;
  const entries = retrievalToolEntries(agent.config.tools).filter(
    (entry) => !only || only.has(entry.config.name),
  );
  const { tools, stores } = await openRetrievalIndexes(agent, entries, options);
  for (const { report, entry } of tools) {
    for (const message of describeIngestProblems(report))
      options.onWarning?.({ code: 'retrieval-ingest', message, path: `tools[${entry.index}].source` });
  }
  let closing: Promise<void> | undefined;
  return {
    tools: tools.map(({ entry, store, collection, client }) =>
      retrievalSearchTool(entry.config, store, collection, client),
    ),
    close: () => {
      closing ??= Promise.all(stores.map((store) => store.close())).then(() => {});
      return closing;
    },
  };
}
