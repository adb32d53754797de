import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SqliteRetrievalStore } from '../../../../src/tools/retrieval/store/sqlite-retrieval-store.js';
import { retrievalStoreConformance } from './store-conformance.js';

retrievalStoreConformance('SQLite (better-sqlite3 + sqlite-vec + FTS5)', async () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'holodeck-retrieval-'));
  return new SqliteRetrievalStore(path.join(folder, '.holodeck', 'index', 'agent.sqlite'));
});
