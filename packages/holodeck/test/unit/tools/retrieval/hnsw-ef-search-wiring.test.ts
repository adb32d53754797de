import { describe, expect, it } from 'vitest';
import { VectorstoreToolSchema } from '../../../../src/config/schema/retrieval-tool-schema.js';
import { searchSettingsOf } from '../../../../src/tools/retrieval/retrieval-tool-settings.js';
import { searchIndex } from '../../../../src/tools/retrieval/search/search-index.js';
import type {
  RetrievalStore,
  SemanticSearchOptions,
} from '../../../../src/tools/retrieval/store/retrieval-store.js';

const POSTGRES = { provider: 'postgres', connection_string: 'postgres://holodeck:secret@localhost:5432/kb' };

/** A store that records what each semantic search was asked, and finds nothing. */
function recordingStore() {
  const calls: { limit: number; options: SemanticSearchOptions | undefined }[] = [];
  const store = {
    searchSemantic: async (
      _collection: string,
      _vector: Float32Array,
      limit: number,
      options?: SemanticSearchOptions,
    ) => {
      calls.push({ limit, options });
      return [];
    },
    searchKeyword: async () => [],
  } as unknown as RetrievalStore;
  return { store, calls };
}

const embed = async () => new Float32Array([1, 0]);

// agent.yaml's hnsw.ef_search travels to every semantic search of the tool (the PostgreSQL store
// sets it per query: postgres-hnsw-settings.integration.test.ts).
describe('hnsw.ef_search reaches the store', () => {
  it('on semantic and hybrid searches, and is absent when unset', async () => {
    const config = (fields: Record<string, unknown>) =>
      VectorstoreToolSchema.parse({
        type: 'vectorstore',
        name: 'faq',
        description: 'FAQ',
        source: './faq.csv',
        vector_index: 'hnsw',
        database: POSTGRES,
        ...fields,
      });
    const semantic = recordingStore();
    await searchIndex(
      semantic.store,
      'a/faq',
      'q',
      embed,
      searchSettingsOf(config({ hnsw: { ef_search: 300 } })),
    );
    const hybrid = recordingStore();
    await searchIndex(
      hybrid.store,
      'a/faq',
      'q',
      embed,
      searchSettingsOf(config({ search_mode: 'hybrid', hnsw: { ef_search: 60 } })),
    );
    const unset = recordingStore();
    await searchIndex(unset.store, 'a/faq', 'q', embed, searchSettingsOf(config({})));
    expect([...semantic.calls, ...hybrid.calls, ...unset.calls]).toEqual([
      { limit: 5, options: { efSearch: 300 } },
      { limit: 50, options: { efSearch: 60 } },
      { limit: 5, options: {} },
    ]);
  });
});
