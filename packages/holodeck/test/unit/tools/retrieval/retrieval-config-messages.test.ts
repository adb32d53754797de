import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkAgentRun } from '../../../../src/runner/check-agent-run.js';
import { type AgentSandbox, BASE, brief, createSandbox, lines } from '../../config/agent-sandbox.js';

let sandbox: AgentSandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.remove());

const OPENAI = [
  'name: test-agent',
  'model:',
  '  provider: openai',
  '  name: gpt-4o',
  'instructions:',
  '  inline: Be helpful.',
];

function tool(...fields: string[]): string[] {
  return [
    'tools:',
    '  - type: hierarchical_document',
    '    name: handbook',
    '    description: Company handbook',
    ...fields,
  ];
}

// Every message a user sees at `holodeck validate` for a retrieval tool (no network needed).
describe('retrieval tools: bad input at validate', () => {
  it('a missing source path', async () => {
    const result = await sandbox.validate(lines(...OPENAI, ...tool('    source: ./nowhere')));
    expect(result.issues.map(brief)).toEqual([
      `11:13 tools[0].source: ${sandbox.dir}/nowhere does not exist | point source at a file or folder, relative to agent.yaml`,
    ]);
  });

  it('an empty folder, and one whose files no parser reads', async () => {
    await sandbox.write('docs/image.png', 'png');
    const result = await sandbox.validate(lines(...OPENAI, ...tool('    source: ./docs')));
    expect(result.issues.map(brief)).toEqual([
      `11:13 tools[0].source: ${sandbox.dir}/docs has no file to index (unsupported: image.png) | supported: .md, .txt, .html, .pdf, .docx, and records in .csv, .json, .jsonl`,
    ]);
  });

  it('an unknown database.provider', async () => {
    await sandbox.write('docs/a.md', '# A\n');
    const result = await sandbox.validate(
      lines(...OPENAI, ...tool('    source: ./docs', '    database:', '      provider: mongodb')),
    );
    expect(result.issues.map(brief)).toMatchInlineSnapshot(`
      [
        "13:17 tools[0].database.provider: expected one of "sqlite", "postgres"; got the string "mongodb"",
      ]
    `);
  });

  it('a connection string without credentials', async () => {
    await sandbox.write('docs/a.md', '# A\n');
    const result = await sandbox.validate(
      lines(
        ...OPENAI,
        ...tool(
          '    source: ./docs',
          '    database:',
          '      provider: postgres',
          '      connection_string: postgres://db.example:5432/kb',
        ),
      ),
    );
    expect(result.issues.map(brief)).toEqual([
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the message shows agent.yaml's ${VAR} syntax
      '14:26 tools[0].database.connection_string: database.connection_string has no user and password | use postgres://user:password@host:5432/database, e.g. postgres://holodeck:${PGPASSWORD}@localhost:5432/holodeck',
    ]);
  });

  it('hybrid weights that make no sense, and hybrid settings on another mode', async () => {
    await sandbox.write('docs/a.md', '# A\n');
    const zero = await sandbox.validate(
      lines(...OPENAI, ...tool('    source: ./docs', '    semantic_weight: 0', '    keyword_weight: 0')),
    );
    expect(zero.issues.map(brief)).toEqual([
      '13:21 tools[0].keyword_weight: semantic_weight and keyword_weight are both 0, so every result would score 0 | give at least one of them a positive weight (default 1), or use search_mode semantic or keyword',
    ]);
    const negative = await sandbox.validate(
      lines(...OPENAI, ...tool('    source: ./docs', '    semantic_weight: -1')),
    );
    expect(negative.issues.map(brief)).toMatchInlineSnapshot(`
      [
        "12:22 tools[0].semantic_weight: must be at least 0, got the number -1",
      ]
    `);
    const elsewhere = await sandbox.validate(
      lines(
        ...OPENAI,
        ...tool('    source: ./docs', '    search_mode: keyword', '    rrf_k: 10', '    min_score: 0.5'),
      ),
    );
    expect(elsewhere.issues.map(brief)).toMatchInlineSnapshot(`
      [
        "13:12 tools[0].rrf_k: "rrf_k" only applies to search_mode hybrid, and this tool uses search_mode keyword | set search_mode: hybrid, or remove it",
        "14:16 tools[0].min_score: min_score is a cosine similarity and has no effect with search_mode keyword | remove it, or use search_mode semantic or hybrid",
      ]
    `);
  });

  it('fusion settings that have no effect, and a stemming that does not exist', async () => {
    await sandbox.write('docs/a.md', '# A\n');
    const keyword = await sandbox.validate(
      lines(...OPENAI, ...tool('    source: ./docs', '    search_mode: keyword', '    fusion: rrf')),
    );
    expect(keyword.issues.map(brief)).toMatchInlineSnapshot(`
      [
        "13:13 tools[0].fusion: "fusion" only applies to search_mode hybrid, and this tool uses search_mode keyword | set search_mode: hybrid, or remove it",
      ]
    `);
    const normalized = await sandbox.validate(
      lines(...OPENAI, ...tool('    source: ./docs', '    fusion: normalized', '    rrf_k: 20')),
    );
    expect(normalized.issues.map(brief)).toMatchInlineSnapshot(`
      [
        "13:12 tools[0].rrf_k: rrf_k only applies to fusion rrf, and this tool uses fusion normalized | remove rrf_k, or set fusion: rrf",
      ]
    `);
    const stemming = await sandbox.validate(
      lines(...OPENAI, ...tool('    source: ./docs', '    stemming: porter')),
    );
    expect(stemming.issues.map(brief)).toMatchInlineSnapshot(`
      [
        "12:15 tools[0].stemming: expected one of "none", "english"; got the string "porter"",
      ]
    `);
  });

  it('a vector_index the store does not have, one without effect, and one that does not exist', async () => {
    await sandbox.write('docs/a.md', '# A\n');
    const hnsw = await sandbox.validate(
      lines(...OPENAI, ...tool('    source: ./docs', '    vector_index: hnsw')),
    );
    const quantized = await sandbox.validate(
      lines(
        ...OPENAI,
        ...tool(
          '    source: ./docs',
          '    vector_index: quantized',
          '    database:',
          '      provider: postgres',
          '      connection_string: postgres://holodeck:secret@localhost:5432/kb',
        ),
      ),
    );
    const keyword = await sandbox.validate(
      lines(...OPENAI, ...tool('    source: ./docs', '    search_mode: keyword', '    vector_index: exact')),
    );
    const unknown = await sandbox.validate(
      lines(...OPENAI, ...tool('    source: ./docs', '    vector_index: ivf')),
    );
    expect(
      [...hnsw.issues, ...quantized.issues, ...keyword.issues, ...unknown.issues].map(brief),
    ).toMatchInlineSnapshot(`
        [
          "12:19 tools[0].vector_index: vector_index hnsw is a pgvector index of the PostgreSQL store, and this tool uses the embedded SQLite index | use vector_index: quantized (or auto) on the embedded index, or set database: {provider: postgres, connection_string: ...}",
          "12:19 tools[0].vector_index: vector_index quantized is an index of the embedded SQLite store, and this tool uses database provider postgres | use vector_index: hnsw (or auto) on PostgreSQL",
          "13:19 tools[0].vector_index: vector_index exact has no effect with search_mode keyword, which reads no vector | remove it, or use search_mode semantic or hybrid",
          "12:19 tools[0].vector_index: expected one of "auto", "exact", "quantized", "hnsw"; got the string "ivf"",
        ]
      `);
  });

  it("hnsw settings: on the wrong store or index, out of pgvector's ranges, and misspelt", async () => {
    await sandbox.write('docs/a.md', '# A\n');
    const postgres = [
      '    database:',
      '      provider: postgres',
      '      connection_string: postgres://holodeck:secret@localhost:5432/kb',
    ];
    const validate = async (...fields: string[]) =>
      (await sandbox.validate(lines(...OPENAI, ...tool('    source: ./docs', ...fields)))).issues.map(brief);
    const messages = [
      ...(await validate('    hnsw:', '      m: 32')),
      ...(await validate('    hnsw:', '      ef_search: 200', ...postgres)),
      ...(await validate('    vector_index: exact', '    hnsw:', '      ef_search: 200', ...postgres)),
      ...(await validate(
        '    vector_index: hnsw',
        '    hnsw:',
        '      m: 1',
        '      ef_search: 1001',
        ...postgres,
      )),
      ...(await validate(
        '    vector_index: hnsw',
        '    hnsw:',
        '      m: 24',
        '      ef_construction: 40',
        ...postgres,
      )),
      ...(await validate('    vector_index: hnsw', '    hnsw:', '      m: 48', ...postgres)),
      ...(await validate('    vector_index: hnsw', '    hnsw:', '      ef_search: 40', ...postgres)),
      ...(await validate(
        '    search_mode: semantic',
        '    top_k: 20',
        '    vector_index: hnsw',
        '    hnsw:',
        '      ef_search: 10',
        ...postgres,
      )),
      ...(await validate('    vector_index: hnsw', '    hnsw:', '      ef_serach: 200', ...postgres)),
    ];
    expect(messages).toMatchInlineSnapshot(`
      [
        "12:5 tools[0].hnsw: hnsw settings tune the pgvector HNSW index of the PostgreSQL store, and this tool uses the embedded SQLite index | remove hnsw, or set database: {provider: postgres, connection_string: ...} and vector_index: hnsw",
        "12:5 tools[0].hnsw: hnsw settings apply to vector_index hnsw, and this tool uses vector_index auto | set vector_index: hnsw (auto searches small collections exactly, where these settings would do nothing), or remove hnsw",
        "13:5 tools[0].hnsw: hnsw settings apply to vector_index hnsw, and this tool uses vector_index exact | set vector_index: hnsw, or remove hnsw",
        "14:10 tools[0].hnsw.m: must be at least 2, got the number 1",
        "15:18 tools[0].hnsw.ef_search: must be at most 1000, got the number 1001",
        "15:24 tools[0].hnsw.ef_construction: hnsw.ef_construction (40) must be at least 2 × m (48); pgvector refuses to build the index otherwise | raise ef_construction to 48 or more (default 64), or lower m",
        "14:10 tools[0].hnsw.m: hnsw.m 48 needs ef_construction of at least 96, above its default 64 | set hnsw.ef_construction: 96 or more, or lower m to 32 or less",
        "14:18 tools[0].hnsw.ef_search: hnsw.ef_search (40) is below the 50 semantic candidates a hybrid search asks for (max(50, 4 × top_k)); pgvector's HNSW returns at most ef_search rows, so searches would come back short | raise ef_search to 50 or more, or remove it (default max(200, 2 × rows))",
        "16:18 tools[0].hnsw.ef_search: hnsw.ef_search (10) is below the 20 results a search asks for (top_k); pgvector's HNSW returns at most ef_search rows, so searches would come back short | raise ef_search to 20 or more, or remove it (default max(200, 2 × rows))",
        "14:7 tools[0].hnsw.ef_serach: unknown key "ef_serach" in tools[0].hnsw | did you mean "ef_search"?",
      ]
    `);
    // In range and consistent: no message.
    expect(
      await validate(
        '    vector_index: hnsw',
        '    hnsw:',
        '      m: 32',
        '      ef_construction: 64',
        '      ef_search: 50',
        ...postgres,
      ),
    ).toEqual([]);
  });

  it('record fields on a source without records, and an overlap as large as the chunk', async () => {
    await sandbox.write('docs/a.md', '# A\n');
    const result = await sandbox.validate(
      lines(
        ...OPENAI,
        'tools:',
        '  - type: vectorstore',
        '    name: faq',
        '    description: FAQ',
        '    source: ./docs',
        '    id_field: id',
        '    chunk_size: 100',
        '    chunk_overlap: 100',
      ),
    );
    expect(result.issues.map(brief)).toMatchInlineSnapshot(`
      [
        "14:20 tools[0].chunk_overlap: chunk_overlap (100) must be smaller than chunk_size (100) | lower chunk_overlap, e.g. to 12",
      ]
    `);
  });
});

const CLAUDE_WITH_HANDBOOK = [
  ...BASE,
  'embedding_provider: {provider: openai, name: text-embedding-3-small}',
  ...tool('    source: ./docs'),
];

describe('retrieval tools in claude.allowed_tools', () => {
  it('are listed as <name>_search, short or in-process spelling', async () => {
    await sandbox.write('docs/a.md', '# A\n');
    const result = await sandbox.validate(
      lines(
        ...CLAUDE_WITH_HANDBOOK,
        'claude:',
        '  allowed_tools: [handbook_search, mcp__holodeck_tools__handbook_search]',
      ),
    );
    expect(result.issues.map(brief)).toEqual([]);
  });

  it('a retrieval tool listed by its agent.yaml name says which name the model calls', async () => {
    await sandbox.write('docs/a.md', '# A\n');
    const result = await sandbox.validate(
      lines(
        ...CLAUDE_WITH_HANDBOOK,
        'claude:',
        '  allowed_tools:',
        '    - handbook',
        '    - mcp__holodeck_tools__handbook',
      ),
    );
    expect(result.issues.map(brief)).toEqual([
      '15:7 claude.allowed_tools[0]: "handbook" names retrieval tool handbook, which the model calls as handbook_search | list "handbook_search" (or "mcp__holodeck_tools__handbook_search")',
      '16:7 claude.allowed_tools[1]: "mcp__holodeck_tools__handbook" names retrieval tool handbook, which the model calls as handbook_search | list "handbook_search" (or "mcp__holodeck_tools__handbook_search")',
    ]);
  });
});

describe('RAG metrics of an agent with a retrieval tool', () => {
  const suite = (...metric: string[]) => [
    'evaluations:',
    '  model: {provider: openai, name: gpt-4o}',
    'test_cases:',
    '  - name: refunds',
    '    input: How do refunds work?',
    '    metrics:',
    ...metric,
  ];

  /** What `holodeck validate` reports, test suite included. */
  const validateRun = async (yaml: string) => {
    await sandbox.write('agent.yaml', yaml);
    return checkAgentRun(sandbox.agentFile, { env: { OPENAI_API_KEY: 'sk-test' }, homeDir: sandbox.home });
  };

  it('need no context: the retrieval tool fills it', async () => {
    await sandbox.write('docs/a.md', '# A\n');
    const result = await validateRun(
      lines(
        ...OPENAI,
        ...tool('    source: ./docs'),
        ...suite('      - type: faithfulness', '      - type: contextual_relevancy'),
      ),
    );
    expect(result.issues.map(brief)).toEqual([]);
  });

  it('still need ground_truth where they compare with it', async () => {
    await sandbox.write('docs/a.md', '# A\n');
    const result = await validateRun(
      lines(...OPENAI, ...tool('    source: ./docs'), ...suite('      - type: contextual_recall')),
    );
    expect(result.issues.map(brief)).toEqual([
      '18:9 test_cases[0].metrics[0]: metric contextual_recall of test case "refunds" needs ground_truth, which the case does not give | add ground_truth (the expected answer) to the test case',
    ]);
  });

  it('without a retrieval tool, need context as before', async () => {
    const result = await validateRun(lines(...OPENAI, ...suite('      - type: faithfulness')));
    expect(result.issues.map(brief)).toEqual([
      '13:9 test_cases[0].metrics[0]: metric faithfulness of test case "refunds" needs context, which the case does not give | add context (the retrieved passages) to the test case',
    ]);
  });
});
