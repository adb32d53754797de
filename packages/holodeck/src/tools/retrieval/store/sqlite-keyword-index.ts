import type Database from 'better-sqlite3';
import type { Chunk } from '../chunk/chunk.js';
import { keywordTerms } from './keyword-terms.js';
import type { Stemming } from './retrieval-store.js';

/** FTS5 tokenizer of each stemming setting: Unicode words, case and diacritics folded; porter stems English. */
const TOKENIZERS: Record<Stemming, string> = {
  none: 'unicode61 remove_diacritics 2',
  english: 'porter unicode61 remove_diacritics 2',
};

/** BM25 column weights of a collection's FTS5 table: (title, heading path, text). */
const BM25_WEIGHTS = '3.0, 2.0, 1.0';

/** FTS5 query matching any of the terms; each is quoted, so no word is read as an operator. */
function ftsQuery(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
}

/** A keyword hit: the chunk's rowid and its BM25 score (higher is better). */
export interface KeywordHit {
  rowid: number;
  score: number;
}

/**
 * The keyword index of one SQLite file: an FTS5 table per collection (`fts_<id>`), so each
 * tool's BM25 statistics (chunk count, document frequencies, average length) come from its own
 * chunks only, with the tokenizer of the tool's `stemming`. Query words are normalised by the
 * same tokenizer (a temporary FTS5 table per tokenizer, read through fts5vocab) to look up their
 * document frequencies. Indexes of older versions kept every tool in one `chunks_fts` table:
 * a collection without its own table gets one built from its chunks on first use.
 */
export class SqliteKeywordIndex {
  private readonly vocabularies = new Set<number>();
  private readonly normalisers = new Set<Stemming>();
  private readonly ready = new Set<number>();

  constructor(private readonly db: Database.Database) {}

  private table(id: number): string {
    return `fts_${id}`;
  }

  /** Creates (or, with a new tokenizer, rebuilds from the chunks table) the collection's FTS5 table. */
  create(id: number, stemming: Stemming): void {
    this.db.exec(`DROP TABLE IF EXISTS ${this.table(id)}`);
    this.db.exec(`DROP TABLE IF EXISTS temp.${this.table(id)}_vocab`);
    this.vocabularies.delete(id);
    this.db.exec(
      `CREATE VIRTUAL TABLE ${this.table(id)} USING fts5(title, heading, text, tokenize='${TOKENIZERS[stemming]}')`,
    );
    this.ready.add(id);
  }

  /** Rebuilds the collection's table from its chunks (a changed `stemming`, or an older index). */
  rebuild(id: number, stemming: Stemming): void {
    this.create(id, stemming);
    const rows = this.db
      .prepare('SELECT rowid, title, heading_path, text FROM chunks WHERE collection_id = ?')
      .all(id) as { rowid: number; title: string; heading_path: string; text: string }[];
    const insert = this.db.prepare(
      `INSERT INTO ${this.table(id)} (rowid, title, heading, text) VALUES (?, ?, ?, ?)`,
    );
    for (const row of rows)
      insert.run(row.rowid, row.title, (JSON.parse(row.heading_path) as string[]).join(' '), row.text);
    if (this.hasLegacyTable())
      this.db
        .prepare('DELETE FROM chunks_fts WHERE rowid IN (SELECT rowid FROM chunks WHERE collection_id = ?)')
        .run(id);
  }

  private hasLegacyTable(): boolean {
    return this.db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'chunks_fts'").get() !== undefined;
  }

  /** Makes sure the collection has its own table (an index of an older version gets one built). */
  ensure(id: number, stemming: Stemming): void {
    if (this.ready.has(id)) return;
    const exists = this.db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(this.table(id));
    if (exists) this.ready.add(id);
    else this.db.transaction(() => this.rebuild(id, stemming))();
  }

  insert(id: number, rowid: bigint, chunk: Chunk): void {
    this.db
      .prepare(`INSERT INTO ${this.table(id)} (rowid, title, heading, text) VALUES (?, ?, ?, ?)`)
      .run(rowid, chunk.title, chunk.headingPath.join(' '), chunk.text);
  }

  delete(id: number, rowid: bigint): void {
    this.db.prepare(`DELETE FROM ${this.table(id)} WHERE rowid = ?`).run(rowid);
  }

  drop(id: number): void {
    this.db.exec(`DROP TABLE IF EXISTS ${this.table(id)}`);
    this.db.exec(`DROP TABLE IF EXISTS temp.${this.table(id)}_vocab`);
    this.vocabularies.delete(id);
    this.ready.delete(id);
  }

  /** Each word with what the collection's tokenizer makes of it (none when it makes no token). */
  private normalise(words: readonly string[], stemming: Stemming): Map<string, string> {
    const table = `temp.normalise_${stemming}`;
    if (!this.normalisers.has(stemming)) {
      this.db.exec(
        `CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING fts5(word, tokenize='${TOKENIZERS[stemming]}')`,
      );
      this.db.exec(
        `CREATE VIRTUAL TABLE IF NOT EXISTS ${table}_tokens USING fts5vocab(temp, normalise_${stemming}, 'instance')`,
      );
      this.normalisers.add(stemming);
    }
    this.db.prepare(`DELETE FROM ${table}`).run();
    const insert = this.db.prepare(`INSERT INTO ${table} (rowid, word) VALUES (?, ?)`);
    words.forEach((word, index) => {
      insert.run(index + 1, word);
    });
    const tokens = this.db.prepare(`SELECT term, doc FROM ${table}_tokens`).all() as {
      term: string;
      doc: number;
    }[];
    return new Map(tokens.map((token) => [words[token.doc - 1] ?? '', token.term]));
  }

  /**
   * The `limit` best BM25 matches of any of `words` in the collection. Words of the same token
   * (after folding and stemming) count once; words in half the chunks or more are left out while
   * a rarer word remains (keywordTerms), and come back if the rarer ones find fewer than `limit`.
   */
  search(id: number, stemming: Stemming, words: readonly string[], limit: number): KeywordHit[] {
    if (!words.length) return [];
    this.ensure(id, stemming);
    const table = this.table(id);
    if (!this.vocabularies.has(id)) {
      this.db.exec(
        `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${table}_vocab USING fts5vocab(main, ${table}, 'row')`,
      );
      this.vocabularies.add(id);
    }
    const tokens = this.normalise(words, stemming);
    const docs = this.db.prepare(`SELECT doc FROM temp.${table}_vocab WHERE term = ?`);
    const seen = new Set<string>();
    const frequencies = [];
    for (const word of words) {
      const token = tokens.get(word);
      if (token === undefined || seen.has(token)) continue;
      seen.add(token);
      frequencies.push({ term: word, docs: (docs.get(token) as { doc: number } | undefined)?.doc ?? 0 });
    }
    // The collection's chunk count from the chunks table's (collection_id, source) index: FTS5's
    // own count(*) reads every row of its table (6x the bare query at 100k chunks).
    const rows = (
      this.db.prepare('SELECT count(*) AS n FROM chunks WHERE collection_id = ?').get(id) as { n: number }
    ).n;
    const plan = keywordTerms(frequencies, rows);
    if (!plan.terms.length) return [];
    const query = this.db.prepare(
      `SELECT rowid, bm25(${table}, ${BM25_WEIGHTS}) AS rank FROM ${table}
       WHERE ${table} MATCH ? ORDER BY rank LIMIT ?`,
    );
    let hits = query.all(ftsQuery(plan.terms), limit) as { rowid: number; rank: number }[];
    if (!plan.complete && hits.length < limit) {
      const all = keywordTerms(frequencies, Number.POSITIVE_INFINITY).terms;
      hits = query.all(ftsQuery(all), limit) as { rowid: number; rank: number }[];
    }
    // FTS5's bm25() is lower-is-better (negative): its negation is the score.
    return hits.map((hit) => ({ rowid: hit.rowid, score: -hit.rank }));
  }
}
