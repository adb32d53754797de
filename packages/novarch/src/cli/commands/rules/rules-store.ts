import { existsSync } from 'node:fs';
import type { z } from 'zod';
import { OperatorUsageError } from '../../../errors.js';
import type { NovarchDatabaseStore } from '../../../model/novarch-store.js';
import { ReplayScopeError } from '../../../rules/replay/replay-rules.js';
import type { SqliteStoreOptions } from '../../../store/open-sqlite-store.js';
import { parseStoreUrl, StoreUrlError } from '../../../store/parse-store-url.js';
import { resolveStorePath, STORE_ENV_VARIABLE } from '../../resolve-store-path.js';
import type { GlobalOptionsSchema, OperatorContext } from '../operator-context.js';

/** A value that names its kind of store (`sqlite:…`, `postgres://…`) rather than a bare file path. */
const STORE_URL = /^(sqlite|postgres|postgresql):/i;

/**
 * Runs `work` on the store the `rules` commands use without `--server` (and `rules test`
 * always: replay reads the recorded sessions, which no route serves), and closes it: `--store` as a file path or a
 * store URL (`sqlite:PATH`, `postgres://…`), else `store.path` of `--config`, else
 * `$NOVARCH_STORE` (a path or a URL), else the default file. A SQLite file must exist (the CLI
 * never creates a store). `where` names the store in messages, without any password.
 */
export async function onRulesStore<T>(
  options: z.output<typeof GlobalOptionsSchema>,
  context: OperatorContext,
  work: (store: NovarchDatabaseStore, where: string) => Promise<T>,
  /** The subcommand, as messages name it. */
  command: 'test' | 'report' = 'test',
): Promise<T> {
  if (options.server !== undefined) {
    const what = command === 'test' ? 'replays' : 'reads recorded verdicts';
    throw new OperatorUsageError(
      `novarch rules ${command} ${what} on a store, not through a server: drop --server and pass --store postgres://… (the server's store) or the SQLite file.`,
    );
  }
  const base = { cwd: context.cwd, homeDirectory: context.homeDirectory };
  const fromEnv = options.config === undefined ? context.env[STORE_ENV_VARIABLE]?.trim() : undefined;
  const given = options.store?.trim() || fromEnv || undefined;
  const source = options.store?.trim() ? '--store' : `$${STORE_ENV_VARIABLE}`;
  if (given !== undefined && STORE_URL.test(given)) {
    let url: ReturnType<typeof parseStoreUrl>;
    try {
      url = parseStoreUrl(given, base);
    } catch (error) {
      if (error instanceof StoreUrlError) throw new OperatorUsageError(`${source}: ${error.message}`);
      throw error;
    }
    if (url.kind === 'postgres') {
      const { openPostgresStore } = await import('../../../store/open-postgres-store.js');
      return withStore(await openPostgresStore(url.url), url.redacted, work);
    }
    return openSqlite(url.path, source, work);
  }
  const location = await resolveStorePath(options, { env: context.env, ...base });
  return openSqlite(location.path, location.source, work, location.storeOptions);
}

async function openSqlite<T>(
  file: string,
  source: string,
  work: (store: NovarchDatabaseStore, where: string) => Promise<T>,
  storeOptions: SqliteStoreOptions = {},
): Promise<T> {
  if (!existsSync(file)) {
    throw new OperatorUsageError(
      `No Novarch store at ${file} (from ${source}). ` +
        'Pass --store FILE (or --store postgres://…) or --config FILE, or set NOVARCH_STORE, to the store your agents use.',
    );
  }
  // Loaded on use: kysely and better-sqlite3 take ~0.4 s to import, which --help need not wait for.
  const { openSqliteStore } = await import('../../../store/open-sqlite-store.js');
  return withStore(await openSqliteStore(file, { ...storeOptions, checkpoints: 'automatic' }), file, work);
}

async function withStore<T>(
  store: NovarchDatabaseStore,
  where: string,
  work: (store: NovarchDatabaseStore, where: string) => Promise<T>,
): Promise<T> {
  try {
    return await work(store, where);
  } finally {
    await store.close();
  }
}

/** Rethrows a replay's scope error (`rules test`, `rules calibrate`) as the operator's usage error (exit 2). */
export function usageOnReplayScope(error: unknown): never {
  if (error instanceof ReplayScopeError) throw new OperatorUsageError(error.message);
  throw error;
}
