import os from 'node:os';
import { loadNovarchConfig } from '../rules/load-novarch-config.js';
import { defaultNovarchConfig, resolveUserPath } from '../rules/novarch-config.js';
import type { SqliteStoreOptions } from '../store/open-sqlite-store.js';

/** The flags that choose the store. */
export interface StoreLocationOptions {
  /** `--store FILE`: wins over everything else. */
  store?: string | undefined;
  /** `--config FILE`: the store is the configuration's `store.path`. */
  config?: string | undefined;
}

/** What the resolution reads besides the flags (the process's, unless a test says otherwise). */
export interface StoreLocationEnvironment {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  homeDirectory: string;
}

/** The store file to open, and where that choice came from (shown in messages). */
export interface ResolvedStorePath {
  /** Absolute path of the SQLite file. */
  path: string;
  /** e.g. `--store`, `store.path in /etc/novarch.yaml`, `$NOVARCH_STORE`, `the default`. */
  source: string;
  /** How to open it: the `store:` settings (redaction, bounds) of `--config FILE`, when given. */
  storeOptions?: SqliteStoreOptions;
}

/** The environment variable naming the store when no flag does. */
export const STORE_ENV_VARIABLE = 'NOVARCH_STORE';

/**
 * Where the operator's store is: `--store FILE` > `--config FILE` (its `store.path`) >
 * `$NOVARCH_STORE` > the default of `defaultNovarchConfig()`. Relative paths are relative to the
 * working directory (the configuration's own paths to its file); `~` is the home directory.
 * A configuration that does not load throws its NovarchConfigError.
 */
export async function resolveStorePath(
  options: StoreLocationOptions,
  environment: StoreLocationEnvironment = {
    env: process.env,
    cwd: process.cwd(),
    homeDirectory: os.homedir(),
  },
): Promise<ResolvedStorePath> {
  const { env, cwd, homeDirectory } = environment;
  const given = (value: string | undefined) => (value?.trim() ? value : undefined);
  const storeFlag = given(options.store);
  if (storeFlag !== undefined) {
    return { path: resolveUserPath(storeFlag, cwd, homeDirectory), source: '--store' };
  }
  const configFlag = given(options.config);
  if (configFlag !== undefined) {
    const file = resolveUserPath(configFlag, cwd, homeDirectory);
    const config = await loadNovarchConfig(file, { homeDirectory });
    const { path: storePath, ...storeOptions } = config.store;
    return { path: storePath, source: `store.path in ${file}`, storeOptions };
  }
  const fromEnv = given(env[STORE_ENV_VARIABLE]);
  if (fromEnv !== undefined) {
    return { path: resolveUserPath(fromEnv, cwd, homeDirectory), source: `$${STORE_ENV_VARIABLE}` };
  }
  return { path: defaultNovarchConfig(homeDirectory).store.path, source: 'the default' };
}
