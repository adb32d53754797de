import { type Kysely, sql } from 'kysely';
import type { Chunk } from '../chunk/chunk.js';
import { keywordTerms } from './keyword-terms.js';
import { keywordText } from './keyword-text.js';
import type { Stemming } from './retrieval-store.js';

/** PostgreSQL text search configuration of each stemming setting. */
const CONFIGURATIONS: Record<Stemming, string> = { none: 'simple', english: 'english' };

/** BM25 parameters, FTS5's (k1 1.2, b 0.75), so both stores rank alike. */
const K1 = 1.2;
const B = 0.75;

/**
 * Tables of the keyword index, kept at ingest: each chunk's terms with their weighted frequency
 * (title ×3, heading path ×2, text ×1, as FTS5's column weights) and its length in tokens; each
 * collection's document frequency per term; the chunk count and total length on the collection.
 */
export const KEYWORD_SCHEMA = [
  sql`ALTER TABLE holodeck_retrieval_collections ADD COLUMN IF NOT EXISTS stemming TEXT NOT NULL DEFAULT 'none'`,
  sql`ALTER TABLE holodeck_retrieval_collections ADD COLUMN IF NOT EXISTS keyword_chunks BIGINT NOT NULL DEFAULT 0`,
  sql`ALTER TABLE holodeck_retrieval_collections ADD COLUMN IF NOT EXISTS keyword_length DOUBLE PRECISION NOT NULL DEFAULT 0`,
  // Collections written before the BM25 tables existed have keyword_version 0: rebuilt on first search.
  sql`ALTER TABLE holodeck_retrieval_collections ADD COLUMN IF NOT EXISTS keyword_version INTEGER NOT NULL DEFAULT 0`,
  sql`ALTER TABLE holodeck_retrieval_chunks ADD COLUMN IF NOT EXISTS keyword_length INTEGER NOT NULL DEFAULT 0`,
  sql`ALTER TABLE holodeck_retrieval_chunks ALTER COLUMN search DROP NOT NULL`,
  sql`DROP INDEX IF EXISTS holodeck_retrieval_chunks_search`,
  sql`CREATE TABLE IF NOT EXISTS holodeck_retrieval_postings (
    collection TEXT NOT NULL, term TEXT NOT NULL,
    chunk BIGINT NOT NULL REFERENCES holodeck_retrieval_chunks (id) ON DELETE CASCADE,
    frequency DOUBLE PRECISION NOT NULL, PRIMARY KEY (collection, term, chunk))`,
  sql`CREATE INDEX IF NOT EXISTS holodeck_retrieval_postings_by_chunk ON holodeck_retrieval_postings (chunk)`,
  sql`CREATE TABLE IF NOT EXISTS holodeck_retrieval_terms (
    collection TEXT NOT NULL, term TEXT NOT NULL, docs INTEGER NOT NULL, PRIMARY KEY (collection, term))`,
];

/** The keyword index's version a collection is at once its postings are built. */
const KEYWORD_VERSION = 1;

/** Indexes one stored chunk's words: its postings, the collection's document frequencies, its length. */
export async function indexChunkKeywords(
  db: Kysely<unknown>,
  collection: string,
  id: number | string,
  chunk: Pick<Chunk, 'title' | 'headingPath' | 'text'>,
  stemming: Stemming,
): Promise<void> {
  const configuration = CONFIGURATIONS[stemming];
  const field = (text: string, weight: number) =>
    sql`SELECT lexeme, ${sql.lit(weight)}::double precision AS weight, coalesce(array_length(positions, 1), 1) AS count
      FROM unnest(to_tsvector(${configuration}::regconfig, ${keywordText(text)}))`;
  await sql`WITH tokens AS (
      ${field(chunk.title, 3)} UNION ALL ${field(chunk.headingPath.join(' '), 2)} UNION ALL ${field(chunk.text, 1)}
    ), postings AS (
      INSERT INTO holodeck_retrieval_postings (collection, term, chunk, frequency)
      SELECT ${collection}, lexeme, ${id}, sum(weight * count) FROM tokens GROUP BY lexeme RETURNING term
    ), terms AS (
      INSERT INTO holodeck_retrieval_terms (collection, term, docs) SELECT ${collection}, term, 1 FROM postings
      ON CONFLICT (collection, term) DO UPDATE SET docs = holodeck_retrieval_terms.docs + 1
    )
    UPDATE holodeck_retrieval_chunks SET keyword_length = (SELECT coalesce(sum(count), 0) FROM tokens)
    WHERE id = ${id}`.execute(db);
}

/** Adds the chunks of `source` (just indexed) to the collection's chunk count and total length. */
export async function addSourceKeywordStats(
  db: Kysely<unknown>,
  collection: string,
  source: string,
): Promise<void> {
  await sql`UPDATE holodeck_retrieval_collections SET
      keyword_chunks = keyword_chunks + s.n, keyword_length = keyword_length + s.length
    FROM (SELECT count(*) AS n, coalesce(sum(keyword_length), 0) AS length FROM holodeck_retrieval_chunks
      WHERE collection = ${collection} AND source = ${source}) s
    WHERE name = ${collection}`.execute(db);
}

/** Takes the chunks of `source` out of the collection's statistics, before they are deleted. */
export async function removeSourceKeywordStats(
  db: Kysely<unknown>,
  collection: string,
  source: string,
): Promise<void> {
  await sql`UPDATE holodeck_retrieval_terms t SET docs = t.docs - gone.n
    FROM (SELECT p.term, count(*) AS n FROM holodeck_retrieval_postings p
      JOIN holodeck_retrieval_chunks c ON c.id = p.chunk
      WHERE c.collection = ${collection} AND c.source = ${source} GROUP BY p.term) gone
    WHERE t.collection = ${collection} AND t.term = gone.term`.execute(db);
  await sql`DELETE FROM holodeck_retrieval_terms WHERE collection = ${collection} AND docs <= 0`.execute(db);
  await sql`UPDATE holodeck_retrieval_collections SET
      keyword_chunks = keyword_chunks - s.n, keyword_length = keyword_length - s.length
    FROM (SELECT count(*) AS n, coalesce(sum(keyword_length), 0) AS length FROM holodeck_retrieval_chunks
      WHERE collection = ${collection} AND source = ${source}) s
    WHERE name = ${collection}`.execute(db);
}

/** Empties the collection's keyword statistics (a reset) and marks them current. */
export async function resetKeywordStats(db: Kysely<unknown>, collection: string): Promise<void> {
  await sql`DELETE FROM holodeck_retrieval_terms WHERE collection = ${collection}`.execute(db);
  await sql`UPDATE holodeck_retrieval_collections SET keyword_chunks = 0, keyword_length = 0,
    keyword_version = ${KEYWORD_VERSION} WHERE name = ${collection}`.execute(db);
}

interface StoredChunkWords {
  id: string | number;
  title: string;
  heading_path: string[] | string;
  text: string;
}

/** Rebuilds the collection's keyword index from its stored chunks with `stemming` (in `db`, a transaction). */
export async function rebuildKeywordIndex(
  db: Kysely<unknown>,
  collection: string,
  stemming: Stemming,
): Promise<void> {
  await sql`DELETE FROM holodeck_retrieval_postings WHERE collection = ${collection}`.execute(db);
  await resetKeywordStats(db, collection);
  await sql`UPDATE holodeck_retrieval_collections SET stemming = ${stemming} WHERE name = ${collection}`.execute(
    db,
  );
  const { rows } =
    await sql<StoredChunkWords>`SELECT id, title, heading_path, text FROM holodeck_retrieval_chunks
    WHERE collection = ${collection} ORDER BY id`.execute(db);
  for (const row of rows) {
    const headingPath =
      typeof row.heading_path === 'string' ? (JSON.parse(row.heading_path) as string[]) : row.heading_path;
    await indexChunkKeywords(
      db,
      collection,
      row.id,
      { title: row.title, headingPath, text: row.text },
      stemming,
    );
  }
  await sql`UPDATE holodeck_retrieval_collections SET keyword_chunks = s.n, keyword_length = s.length
    FROM (SELECT count(*) AS n, coalesce(sum(keyword_length), 0) AS length FROM holodeck_retrieval_chunks
      WHERE collection = ${collection}) s
    WHERE name = ${collection}`.execute(db);
}

/** The collection's stemming and whether its keyword index is current (undefined: no such collection). */
export async function keywordStateOf(
  db: Kysely<unknown>,
  collection: string,
): Promise<{ stemming: Stemming; current: boolean } | undefined> {
  const { rows } = await sql<{ stemming: string; keyword_version: number }>`SELECT stemming, keyword_version
    FROM holodeck_retrieval_collections WHERE name = ${collection}`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  return {
    stemming: row.stemming === 'english' ? 'english' : 'none',
    current: row.keyword_version >= KEYWORD_VERSION,
  };
}

/**
 * The `limit` best BM25 matches of `words` in the collection, with its own statistics: the
 * formula and term selection of FTS5's bm25() in the embedded index (IDF floored at 1e-6, k1 1.2,
 * b 0.75, weighted term frequencies, terms in half the chunks or more left out while a rarer one
 * remains: keywordTerms), so both stores return the same top-k for the same corpus.
 */
export async function searchKeywordIndex(
  db: Kysely<unknown>,
  collection: string,
  stemming: Stemming,
  words: readonly string[],
  limit: number,
): Promise<{ id: string; score: number }[]> {
  const configuration = CONFIGURATIONS[stemming];
  const folded = words.map(keywordText).filter(Boolean);
  if (!folded.length) return [];
  const { rows: lexemes } = await sql<{ term: string; docs: number | string; chunks: number | string }>`
    SELECT DISTINCT l.lexeme AS term, coalesce(t.docs, 0) AS docs, c.keyword_chunks AS chunks
    FROM unnest(${folded}::text[]) AS w(word)
    CROSS JOIN LATERAL unnest(to_tsvector(${configuration}::regconfig, w.word)) AS l
    JOIN holodeck_retrieval_collections c ON c.name = ${collection}
    LEFT JOIN holodeck_retrieval_terms t ON t.collection = ${collection} AND t.term = l.lexeme`.execute(db);
  if (!lexemes.length) return [];
  const chunks = Number(lexemes[0]?.chunks ?? 0);
  const frequencies = lexemes.map((row) => ({ term: row.term, docs: Number(row.docs) }));
  const plan = keywordTerms(frequencies, chunks);
  const run = async (terms: readonly string[]) => {
    const { rows } = await sql<{ chunk: string; score: number | string }>`
      WITH stats AS (
        SELECT keyword_chunks AS n, CASE WHEN keyword_chunks > 0 THEN keyword_length / keyword_chunks ELSE 1 END AS avgdl
        FROM holodeck_retrieval_collections WHERE name = ${collection}
      ), idf AS (
        SELECT t.term, greatest(ln((stats.n - t.docs + 0.5) / (t.docs + 0.5)), 1e-6) AS idf
        FROM holodeck_retrieval_terms t, stats
        WHERE t.collection = ${collection} AND t.term = ANY(${[...terms]}::text[]) AND t.docs > 0
      )
      SELECT p.chunk, sum(idf.idf * p.frequency * ${sql.lit(K1 + 1)}::double precision /
        (p.frequency + ${sql.lit(K1)}::double precision * (${sql.lit(1 - B)}::double precision
          + ${sql.lit(B)}::double precision * c.keyword_length / stats.avgdl))) AS score
      FROM holodeck_retrieval_postings p
      JOIN idf ON p.collection = ${collection} AND p.term = idf.term
      JOIN holodeck_retrieval_chunks c ON c.id = p.chunk, stats
      GROUP BY p.chunk ORDER BY score DESC, p.chunk LIMIT ${limit}`.execute(db);
    return rows.map((row) => ({ id: String(row.chunk), score: Number(row.score) }));
  };
  let hits = await run(plan.terms);
  if (!plan.complete && hits.length < limit)
    hits = await run(keywordTerms(frequencies, Number.POSITIVE_INFINITY).terms);
  return hits;
}
