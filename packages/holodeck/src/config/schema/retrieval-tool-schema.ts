import { z } from 'zod';
import { addConfigIssue } from './add-config-issue.js';
import { checkHnsw, HnswSchema } from './retrieval-hnsw-schema.js';
import { toolDescription, toolName } from './tool-name-schema.js';

// The fields of the two retrieval tool types (`vectorstore`, `hierarchical_document`). Their
// implementation is src/tools/retrieval/; every field here is applied there, or refused below.

/** Where a retrieval tool keeps its index: the embedded SQLite file (default) or PostgreSQL. */
export const RetrievalDatabaseSchema = z
  .discriminatedUnion('provider', [
    z.strictObject({
      provider: z.literal('sqlite').describe('One SQLite file per agent under .holodeck/index/ (default).'),
    }),
    z.strictObject({
      provider: z.literal('postgres').describe('PostgreSQL with the pgvector extension.'),
      connection_string: z.string().min(1).describe(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: shows agent.yaml's ${VAR} syntax
        'postgres://user:password@host:5432/db; use ${VAR} to keep the password out of agent.yaml.',
      ),
    }),
  ])
  .describe('Index storage; default: the embedded SQLite index.');
/** The `database` block of a retrieval tool. */
export type RetrievalDatabaseConfig = z.infer<typeof RetrievalDatabaseSchema>;

const searchMode = z
  .enum(['semantic', 'keyword', 'hybrid'])
  .describe('semantic: cosine similarity; keyword: BM25 full text; hybrid: both, fused (see fusion).');

/** Fields both retrieval tool types share. */
const commonFields = {
  approval: z
    .enum(['never', 'always'])
    .optional()
    .describe('openai/azure_openai/ollama chats: always asks before each search (default: never, a lookup).'),
  replay_tools: z
    .boolean()
    .optional()
    .describe(
      'In `holodeck test --replay`: answer each search with the result recorded for it instead of searching.',
    ),
  source: z.string().min(1).describe('File or folder, relative to agent.yaml.'),
  include: z
    .array(z.string().min(1))
    .optional()
    .describe('Globs of files to index inside a source folder (default: every supported file).'),
  exclude: z.array(z.string().min(1)).optional().describe('Globs of files to leave out of a source folder.'),
  embedding_model: z
    .string()
    .min(1)
    .optional()
    .describe("Embedding model; default: embedding_provider.name, else the provider's default model."),
  embedding_dimensions: z
    .int()
    .positive()
    .optional()
    .describe('Vector size to request and expect; default: whatever the model returns.'),
  top_k: z.int().positive().max(100).default(5).describe('Results returned per search.'),
  min_score: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe('Lowest cosine similarity (0..1) a semantic match needs (semantic and hybrid modes).'),
  fusion: z
    .enum(['rrf', 'normalized'])
    .optional()
    .describe(
      'hybrid: how the two rankings merge: normalized (the scores of each list scaled from the floor of its scorer to its best, weighted sum; the default) or rrf (reciprocal rank fusion; the default when rrf_k is set).',
    ),
  rrf_k: z.int().positive().optional().describe('hybrid: reciprocal rank fusion constant; default 60.'),
  semantic_weight: z
    .number()
    .min(0)
    .optional()
    .describe('hybrid: weight of the semantic ranking; default 1.'),
  keyword_weight: z
    .number()
    .min(0)
    .optional()
    .describe('hybrid: weight of the keyword ranking; default 4 with fusion normalized, 1 with rrf.'),
  stemming: z
    .enum(['none', 'english'])
    .default('english')
    .describe(
      'Keyword search: english (default) matches word forms (tests, testing → test: FTS5 porter, PostgreSQL english configuration, which also drops stop words); none matches words as written (use it for documents not in English).',
    ),
  vector_index: z
    .enum(['auto', 'exact', 'quantized', 'hnsw'])
    .default('auto')
    .describe(
      'How semantic search finds the nearest vectors: exact (scan every vector), quantized (embedded index: scan 1-bit vectors, rescore the best exactly), hnsw (PostgreSQL: a pgvector HNSW index), auto (default: exact below 10,000 chunks, else quantized on SQLite and hnsw on PostgreSQL). See docs/retrieval.md.',
    ),
  hnsw: HnswSchema.optional(),
  database: RetrievalDatabaseSchema.optional(),
};

type CommonFields = {
  search_mode: 'semantic' | 'keyword' | 'hybrid';
  fusion?: 'rrf' | 'normalized' | undefined;
  min_score?: number | undefined;
  rrf_k?: number | undefined;
  semantic_weight?: number | undefined;
  keyword_weight?: number | undefined;
  chunk_overlap: number;
  vector_index: 'auto' | 'exact' | 'quantized' | 'hnsw';
  top_k: number;
  hnsw?: z.infer<typeof HnswSchema> | undefined;
  database?: RetrievalDatabaseConfig | undefined;
};

/** vector_index must fit the store and have an effect (keyword search reads no vector). */
function checkVectorIndex(tool: CommonFields, context: z.RefinementCtx) {
  const provider = tool.database?.provider ?? 'sqlite';
  if (tool.vector_index === 'hnsw' && provider === 'sqlite') {
    addConfigIssue(
      context,
      ['vector_index'],
      'vector_index hnsw is a pgvector index of the PostgreSQL store, and this tool uses the embedded SQLite index',
      'use vector_index: quantized (or auto) on the embedded index, or set database: {provider: postgres, connection_string: ...}',
    );
  } else if (tool.vector_index === 'quantized' && provider === 'postgres') {
    addConfigIssue(
      context,
      ['vector_index'],
      'vector_index quantized is an index of the embedded SQLite store, and this tool uses database provider postgres',
      'use vector_index: hnsw (or auto) on PostgreSQL',
    );
  } else if (tool.search_mode === 'keyword' && tool.vector_index !== 'auto') {
    addConfigIssue(
      context,
      ['vector_index'],
      `vector_index ${tool.vector_index} has no effect with search_mode keyword, which reads no vector`,
      'remove it, or use search_mode semantic or hybrid',
    );
  }
}

/** Cross-field rules both types share: hybrid-only settings, weights, overlap below the chunk size. */
function checkCommon(
  tool: CommonFields,
  chunkSizeField: string,
  chunkSize: number,
  context: z.RefinementCtx,
) {
  if (tool.search_mode !== 'hybrid') {
    for (const field of ['fusion', 'rrf_k', 'semantic_weight', 'keyword_weight'] as const) {
      if (tool[field] === undefined) continue;
      addConfigIssue(
        context,
        [field],
        `"${field}" only applies to search_mode hybrid, and this tool uses search_mode ${tool.search_mode}`,
        'set search_mode: hybrid, or remove it',
      );
    }
  } else if (tool.fusion === 'normalized' && tool.rrf_k !== undefined) {
    addConfigIssue(
      context,
      ['rrf_k'],
      'rrf_k only applies to fusion rrf, and this tool uses fusion normalized',
      'remove rrf_k, or set fusion: rrf',
    );
  } else if (tool.semantic_weight === 0 && tool.keyword_weight === 0) {
    addConfigIssue(
      context,
      ['keyword_weight'],
      'semantic_weight and keyword_weight are both 0, so every result would score 0',
      'give at least one of them a positive weight (default 1), or use search_mode semantic or keyword',
    );
  }
  if (tool.search_mode === 'keyword' && tool.min_score !== undefined) {
    addConfigIssue(
      context,
      ['min_score'],
      'min_score is a cosine similarity and has no effect with search_mode keyword',
      'remove it, or use search_mode semantic or hybrid',
    );
  }
  checkVectorIndex(tool, context);
  checkHnsw(tool, context);
  if (tool.chunk_overlap >= chunkSize) {
    addConfigIssue(
      context,
      ['chunk_overlap'],
      `chunk_overlap (${tool.chunk_overlap}) must be smaller than ${chunkSizeField} (${chunkSize})`,
      `lower chunk_overlap, e.g. to ${Math.floor(chunkSize / 8)}`,
    );
  }
}

/** Semantic search over documents and structured records. */
export const VectorstoreToolSchema = z
  .strictObject({
    type: z.literal('vectorstore').describe('Search over documents or records (CSV, JSON, JSONL).'),
    name: toolName,
    description: toolDescription,
    ...commonFields,
    search_mode: searchMode.default('semantic'),
    chunk_size: z.int().min(16).max(8191).default(512).describe('Tokens per chunk (cl100k_base).'),
    chunk_overlap: z.int().nonnegative().default(64).describe('Tokens shared by consecutive chunks.'),
    vector_field: z
      .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
      .optional()
      .describe('Records: the field (or fields) whose text is embedded; default: every field.'),
    id_field: z
      .string()
      .min(1)
      .optional()
      .describe('Records: the field used as chunk id; default: the row number.'),
    meta_fields: z
      .array(z.string().min(1))
      .optional()
      .describe('Records: fields shown with each result (not embedded).'),
    record_path: z
      .string()
      .min(1)
      .optional()
      .describe('JSON: dotted path to the array of records, e.g. data.items.'),
  })
  .superRefine((tool, context) => checkCommon(tool, 'chunk_size', tool.chunk_size, context));
/** A vectorstore tool. */
export type VectorstoreToolConfig = z.infer<typeof VectorstoreToolSchema>;

/** Structure-aware document search: chunks follow headings and carry their heading path. */
export const HierarchicalDocumentToolSchema = z
  .strictObject({
    type: z.literal('hierarchical_document').describe('Structure-aware document search.'),
    name: toolName,
    description: toolDescription,
    ...commonFields,
    search_mode: searchMode.default('hybrid'),
    max_chunk_tokens: z
      .int()
      .min(16)
      .max(8191)
      .default(800)
      .describe('Most tokens of one chunk (cl100k_base); a section longer than this is split.'),
    chunk_overlap: z
      .int()
      .nonnegative()
      .default(0)
      .describe('Tokens repeated from the previous chunk when a section is split.'),
  })
  .superRefine((tool, context) => checkCommon(tool, 'max_chunk_tokens', tool.max_chunk_tokens, context));
/** A hierarchical document tool. */
export type HierarchicalDocumentToolConfig = z.infer<typeof HierarchicalDocumentToolSchema>;
