import type { IdentityStore } from '../identity/identity-store.js';
import { openIdentityStore } from '../identity/open-identity-store.js';
import type { NovarchDatabaseStore } from '../model/novarch-store.js';
import { parseStoreUrl, type StoreUrlBase } from '../store/parse-store-url.js';
import type { StoredValueOptions } from '../store/stored-value-policy.js';

/** The server's store and the identity tables beside it, in one database. */
export interface ServerStores {
  store: NovarchDatabaseStore;
  identities: IdentityStore;
  /** What the store is, for messages (a PostgreSQL URL with its password as `***`). */
  description: string;
  /** The PostgreSQL URL (with its password) when the store is on PostgreSQL: servers share it. */
  postgresUrl?: string;
  close(): Promise<void>;
}

/**
 * Opens the store a `sqlite:PATH` or `postgres://…` URL names (created and migrated if new), and
 * the identity tables in the same database. The operator CLI's `keys` and `operators` commands
 * open the same pair, so they work on the store the server uses.
 */
export async function openServerStores(
  url: string,
  options: StoredValueOptions & StoreUrlBase = {},
  instanceId?: string,
): Promise<ServerStores> {
  const { cwd, homeDirectory, ...storeOptions } = options;
  const location = parseStoreUrl(url, {
    ...(cwd === undefined ? {} : { cwd }),
    ...(homeDirectory === undefined ? {} : { homeDirectory }),
  });
  let store: NovarchDatabaseStore;
  if (location.kind === 'sqlite') {
    const { openSqliteStore } = await import('../store/open-sqlite-store.js');
    store = await openSqliteStore(location.path, storeOptions);
  } else {
    const { openPostgresStore } = await import('../store/open-postgres-store.js');
    store = await openPostgresStore(location.url, {
      ...storeOptions,
      ...(instanceId === undefined ? {} : { instanceId }),
    });
  }
  let identities: IdentityStore;
  try {
    identities = await openIdentityStore(
      location.kind === 'sqlite'
        ? { kind: 'sqlite', path: location.path }
        : { kind: 'postgres', url: location.url },
    );
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    store,
    identities,
    description: location.kind === 'sqlite' ? `sqlite:${location.path}` : location.redacted,
    ...(location.kind === 'postgres' ? { postgresUrl: location.url } : {}),
    async close() {
      await identities.close();
      await store.close();
    },
  };
}
