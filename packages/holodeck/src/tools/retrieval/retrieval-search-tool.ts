import { z } from 'zod';
import { errorMessage } from '../../support.js';
import type { HoloDeckTool, ToolOutput } from '../holodeck-tool.js';
import { EmbeddingDimensionError, type EmbeddingsClient } from './embed/embeddings-client.js';
import { type RetrievalToolConfig, searchSettingsOf, searchToolName } from './retrieval-tool-settings.js';
import { formatResults } from './search/format-results.js';
import { searchIndex } from './search/search-index.js';
import type { RetrievalStore } from './store/retrieval-store.js';

const InputSchema = z.strictObject({ query: z.string().trim().min(1) });

/** The JSON Schema every retrieval tool offers: one required query string. */
export const SEARCH_INPUT_SCHEMA = {
  type: 'object',
  properties: { query: { type: 'string', description: 'What to look for, in words.' } },
  required: ['query'],
  additionalProperties: false,
} as const;

/**
 * A retrieval tool as a HoloDeckTool, `<name>_search` with input `{ query }`: embeds the query
 * (unless keyword-only), searches the tool's collection and answers with formatted results
 * (format-results.ts). A failure (embeddings API down, database gone) is an error output.
 */
export function retrievalSearchTool(
  config: RetrievalToolConfig,
  store: RetrievalStore,
  collection: string,
  client: EmbeddingsClient,
): HoloDeckTool {
  const settings = searchSettingsOf(config);
  const name = searchToolName(config.name);
  return {
    name,
    description: `${config.description} Searches ${config.type === 'hierarchical_document' ? 'documents by section' : 'an index'} (${settings.mode}); each result cites its source.`,
    inputSchema: { ...SEARCH_INPUT_SCHEMA },
    async execute(input, options = {}): Promise<ToolOutput> {
      const checked = InputSchema.safeParse(input);
      if (!checked.success) {
        return {
          text: `Invalid arguments for "${name}": expected { "query": "<non-empty text>" }`,
          isError: true,
        };
      }
      try {
        const embedQuery = async (query: string) => {
          const [vector] = await client.embed(
            [query],
            options.signal,
            undefined,
            undefined,
            options.traffic?.embeddingsFetch,
          );
          if (!vector) throw new Error('the embeddings API returned no vector for the query');
          return vector;
        };
        const hits = await searchIndex(store, collection, checked.data.query, embedQuery, settings);
        return { text: formatResults(hits), isError: false };
      } catch (error) {
        if (error instanceof EmbeddingDimensionError) {
          // The model behind the same name changed since the index was built: only a rebuild helps.
          return {
            text: `Search failed: the index of tool ${config.name} holds ${error.expected}-dimension vectors, but embedding model ${error.model} now returns ${error.actual} dimensions; re-ingest every file with \`holodeck ingest --force\` (or --force-ingest on chat or test)`,
            isError: true,
          };
        }
        return { text: `Search failed: ${errorMessage(error)}`, isError: true };
      }
    },
  };
}
