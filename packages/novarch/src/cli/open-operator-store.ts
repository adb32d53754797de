import { existsSync } from 'node:fs';
import { OperatorUsageError } from '../errors.js';
import type { NovarchDatabaseStore } from '../model/novarch-store.js';
import type { ResolvedStorePath } from './resolve-store-path.js';

/**
 * Runs `work` on the operator's store and closes it afterwards. The file must exist: opening
 * creates a store, and an operator pointed at the wrong path should hear so, not see an empty one.
 */
export async function withOperatorStore<T>(
  location: ResolvedStorePath,
  work: (store: NovarchDatabaseStore) => Promise<T>,
): Promise<T> {
  if (!existsSync(location.path)) {
    throw new OperatorUsageError(
      `No Novarch store at ${location.path} (from ${location.source}). ` +
        'Pass --store FILE or --config FILE, or set NOVARCH_STORE, to the store your agents use.',
    );
  }
  // Loaded on use: kysely and better-sqlite3 take ~0.4 s to import, which --help need not wait for.
  const { openSqliteStore } = await import('../store/open-sqlite-store.js');
  // A short-lived process: SQLite's own checkpoints suffice (no worker thread to start).
  const store = await openSqliteStore(location.path, { ...location.storeOptions, checkpoints: 'automatic' });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
