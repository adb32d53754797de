import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SqliteRetrievalStore } from '../../../../src/tools/retrieval/store/sqlite-retrieval-store.js';
import { ingestLockConformance, retrievalStoreConformance } from './store-conformance.js';

const indexFile = () =>
  path.join(mkdtempSync(path.join(tmpdir(), 'holodeck-retrieval-')), '.holodeck', 'index', 'agent.sqlite');

retrievalStoreConformance(
  'SQLite (better-sqlite3 + sqlite-vec + FTS5)',
  async () => new SqliteRetrievalStore(indexFile()),
);

// Two handles on one index file, as two holodeck processes have.
ingestLockConformance('SQLite (lock file)', async () => {
  const file = indexFile();
  return { first: new SqliteRetrievalStore(file), second: new SqliteRetrievalStore(file) };
});
