import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NovarchEngine } from '../engine/novarch-engine.js';
import { ModelLlmJudge } from '../rules/llm/model-llm-judge.js';
import { loadNovarchConfig } from '../rules/load-novarch-config.js';
import { loadRulesFiles } from '../rules/load-rules-file.js';
import { DEFAULT_HOLD_WINDOW_SECONDS, type NovarchConfig, resolveUserPath } from '../rules/novarch-config.js';
import { openSqliteStore } from '../store/open-sqlite-store.js';

/** The environment variable naming the configuration file of the embedded default. */
export const CONFIG_ENV_VARIABLE = 'NOVARCH_CONFIG';
/** The environment variable naming the store (as for the operator CLI). */
const STORE_ENV_VARIABLE = 'NOVARCH_STORE';
/** The configuration file the embedded default reads from the working directory when present. */
export const EMBEDDED_CONFIG_FILE = 'novarch.yaml';
/** Where the embedded default keeps its store without a configuration, relative to the working directory. */
export const EMBEDDED_STORE_PATH = '.novarch/novarch.db';

/** What the embedded default reads besides its files (the process's, unless a test says otherwise). */
export interface EmbeddedEnvironment {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  homeDirectory: string;
  /** Where the warning goes (default stderr). */
  warn: (message: string) => void;
}

/** The engine `augur.session` uses when none is given, and where it came from. */
export interface EmbeddedEngine {
  engine: NovarchEngine;
  /** Absolute path of the store file. */
  storePath: string;
  /** The configuration file read, if any. */
  configFile?: string;
}

function processEnvironment(): EmbeddedEnvironment {
  return {
    env: process.env,
    cwd: process.cwd(),
    homeDirectory: os.homedir(),
    warn: (message) => process.stderr.write(`${message}\n`),
  };
}

let warnedWithoutRules = false;

/** Forgets that the no-rules warning was given (tests only). */
export function resetEmbeddedWarnings(): void {
  warnedWithoutRules = false;
}

/**
 * Opens the embedded default engine, the one `augur.session` uses without an engine (and without
 * `augur.configure`):
 * - the configuration: the file `$NOVARCH_CONFIG` names, else `novarch.yaml` in the working
 *   directory when there is one, else none (a hold window of 300 s, no judge, no rules);
 * - the store: `$NOVARCH_STORE`, else the configuration's `store.path` (with its redaction and
 *   bounds), else `.novarch/novarch.db` in the working directory;
 * - the rules: the configuration's rules files. With none, every write is held for an operator,
 *   never passed (`withoutRules: 'hold'`), and a warning says so once per process.
 * A configuration or rules file that does not load rejects with its NovarchConfigError or
 * RulesError; a store that cannot be opened with its NovarchStoreError.
 */
export async function openEmbeddedEngine(
  environment: EmbeddedEnvironment = processEnvironment(),
): Promise<EmbeddedEngine> {
  const { env, cwd, homeDirectory } = environment;
  const given = (value: string | undefined) => (value?.trim() ? value : undefined);
  const configFromEnv = given(env[CONFIG_ENV_VARIABLE]);
  const localConfig = path.join(cwd, EMBEDDED_CONFIG_FILE);
  const configFile =
    configFromEnv !== undefined
      ? resolveUserPath(configFromEnv, cwd, homeDirectory)
      : existsSync(localConfig)
        ? localConfig
        : undefined;
  const config =
    configFile === undefined ? undefined : await loadNovarchConfig(configFile, { homeDirectory });
  const storeFromEnv = given(env[STORE_ENV_VARIABLE]);
  const storePath =
    storeFromEnv !== undefined
      ? resolveUserPath(storeFromEnv, cwd, homeDirectory)
      : (config?.store.path ?? path.resolve(cwd, EMBEDDED_STORE_PATH));
  const rules = await loadRulesFiles(config?.rules ?? []);
  const { path: _path, ...storeOptions } = config?.store ?? { path: storePath };
  const store = await openSqliteStore(storePath, storeOptions);
  const engine = new NovarchEngine({
    store,
    rules,
    holdWindowSeconds: config?.holdWindowSeconds ?? DEFAULT_HOLD_WINDOW_SECONDS,
    withoutRules: 'hold',
    ...(config?.judge ? { llmJudge: new ModelLlmJudge({ ...config.judge, env }) } : {}),
  });
  if (rules.length === 0 && !warnedWithoutRules) {
    warnedWithoutRules = true;
    environment.warn(withoutRulesWarning(config, cwd, storePath));
  }
  return { engine, storePath, ...(configFile === undefined ? {} : { configFile }) };
}

/** The warning of an embedded default without rules: why, what it means, what to do. */
function withoutRulesWarning(config: NovarchConfig | undefined, cwd: string, storePath: string): string {
  const why =
    config?.file === undefined
      ? `no ${EMBEDDED_CONFIG_FILE} in ${cwd} and $${CONFIG_ENV_VARIABLE} is not set`
      : `rules: in ${config.file} lists no rules files`;
  return (
    `novarch: no rules are configured (${why}): every governed write is held for an operator, never passed. ` +
    `Decide holds with \`novarch holds list --store ${storePath}\`, or list rules files under rules: in ${EMBEDDED_CONFIG_FILE}.`
  );
}
