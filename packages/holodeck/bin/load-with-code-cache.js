// Loads a CommonJS bundle through vm.Script with a V8 code cache, so starts after the first one
// skip compiling it (bench/chat-vs-sdk.mjs). Node 20 has no compile cache of its own
// (module.enableCompileCache() arrived in Node 22) and none at all for ES modules, which is why
// the CLI, the Claude Agent SDK and the AI SDK are bundled as CommonJS (scripts/bundle-cli.mjs).
//
// The cache is the user's, not the package's: it lives in a per-user cache folder
// (codeCacheDirectory below; HOLODECK_CODE_CACHE_DIR overrides it), never inside the installed
// package, which may be read-only, shared by several users, or packed and published. A file is
// named after the bundle's path, the Node version, the platform, the V8 flags and the caller's
// variant (its prefix), then the bundle file's identity (size, modification time in ns, inode): a rebuilt bundle or
// another Node never reads a stale cache (V8 itself only compares the source length), and
// writing one removes the caches of that bundle's earlier builds. It is written once, at exit,
// so it also holds the functions the run compiled lazily: only those a run like the first one
// needs, which is what the variant is for (the CLI keeps one cache per command, so a first
// `holodeck --version` does not leave `chat` compiling its own code on every start). A cache is
// an optimisation only: when
// the folder cannot be written or V8 rejects a cache, the bundle is compiled as usual, silently.
//
// With HOLODECK_TRACE_LOADS set to a file, every bundle loaded here and every model SDK package the
// CLI bundle loads (vendored or installed: scripts/bundle-cli.mjs) is appended to it, one line
// each: how tests check that a start-up loads only what its agent needs.
//
// The bundle must not call import(): a vm.Script has no loader for it without an experimental
// flag (scripts/bundle-cli.mjs fails the build if one is left; ES modules are require()d).
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import Module, { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

/** The variable that names the code cache folder instead of the per-user default. */
export const CODE_CACHE_DIR_VARIABLE = 'HOLODECK_CODE_CACHE_DIR';
/** The variable that names a file to append a line to for every bundle and model SDK loaded. */
export const TRACE_LOADS_VARIABLE = 'HOLODECK_TRACE_LOADS';

/**
 * Appends `what` to the file $HOLODECK_TRACE_LOADS names; nothing when it is unset.
 * @param {string} what e.g. `vendored @ai-sdk/openai`, `installed @anthropic-ai/claude-agent-sdk`
 */
export function traceLoad(what) {
  const file = process.env[TRACE_LOADS_VARIABLE];
  if (file) appendFileSync(file, `${what}\n`);
}

/**
 * Evaluates `file` (a CommonJS module) as Node's require() would, with a code cache.
 * @param {string} file absolute path of the bundle
 * @param {{ variant?: string }} [options] `variant`: runs that need other parts of the bundle
 *   (e.g. the CLI's commands) keep a cache each
 * @returns {{ exports: unknown, cache: 'hit' | 'miss' | 'rejected' }} the module's exports, and
 *   what became of the cache: used, absent (or no cache folder), or refused by V8
 */
export function loadWithCodeCache(file, { variant = '' } = {}) {
  const source = readFileSync(file, 'utf8');
  const cacheDir = codeCacheDirectory();
  const { prefix, cacheFile } = cacheDir ? cacheFileFor(file, cacheDir, variant) : {};
  const cachedData = cacheFile ? readIfPresent(cacheFile) : undefined;
  const script = new vm.Script(Module.wrap(commentOutShebang(source)), { filename: file, cachedData });
  const cache = !cachedData ? 'miss' : script.cachedDataRejected ? 'rejected' : 'hit';
  traceLoad(`bundle ${file} (code cache ${cache})`);
  if (cacheDir && cache !== 'hit') {
    process.once('exit', () => writeCache(script, cacheDir, prefix, cacheFile));
  }

  const module = new Module(file);
  module.filename = file;
  module.paths = Module._nodeModulePaths(path.dirname(file));
  const run = script.runInThisContext();
  run.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  module.loaded = true;
  return { exports: module.exports, cache };
}

/**
 * The folder of the code caches: $HOLODECK_CODE_CACHE_DIR, else `holodeck/code-cache` in the
 * user's cache folder ($XDG_CACHE_HOME, else ~/Library/Caches on macOS, %LOCALAPPDATA% on
 * Windows, ~/.cache elsewhere). Undefined when there is no home folder to put it in.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string | undefined}
 */
export function codeCacheDirectory(env = process.env) {
  const override = env[CODE_CACHE_DIR_VARIABLE];
  if (override) return path.resolve(override);
  const userCache = userCacheDirectory(env);
  return userCache ? path.join(userCache, 'holodeck', 'code-cache') : undefined;
}

function userCacheDirectory(env) {
  if (env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)) return env.XDG_CACHE_HOME;
  if (process.platform === 'win32' && env.LOCALAPPDATA) return env.LOCALAPPDATA;
  let home;
  try {
    home = os.homedir();
  } catch {
    return undefined; // no HOME and no passwd entry: run without a cache
  }
  if (!home) return undefined;
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches');
  if (process.platform === 'win32') return path.join(home, 'AppData', 'Local');
  return path.join(home, '.cache');
}

function cacheFileFor(file, cacheDir, variant) {
  const prefix = `${path.basename(file)}.${hash(
    `${file}\0${process.version}\0${process.platform}\0${process.arch}\0`,
    `${process.execArgv.join(' ')}\0${process.env.NODE_OPTIONS ?? ''}`,
    variant ? `\0${variant}` : '',
  )}.`;
  const { size, mtimeNs, ino } = statSync(file, { bigint: true });
  return { prefix, cacheFile: path.join(cacheDir, `${prefix}${hash(`${size}\0${mtimeNs}\0${ino}`)}.v8`) };
}

function hash(...parts) {
  const digest = createHash('sha256');
  for (const part of parts) digest.update(part);
  return digest.digest('hex').slice(0, 16);
}

function readIfPresent(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** `#!/usr/bin/env node` is not JavaScript inside the wrapper; `//` keeps lines and columns. */
function commentOutShebang(source) {
  return source.startsWith('#!') ? `//${source.slice(2)}` : source;
}

function writeCache(script, cacheDir, prefix, cacheFile) {
  const partial = `${cacheFile}.${process.pid}.tmp`;
  try {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(partial, script.createCachedData());
    renameSync(partial, cacheFile); // atomic: concurrent first runs never read half a file
  } catch {
    // Not writable (a read-only home, a file in the way): later runs compile as this one did.
    try {
      rmSync(partial, { force: true });
    } catch {
      // The cache folder is not a folder: there is no partial file either.
    }
    return;
  }
  removeEarlierBuilds(cacheDir, prefix, cacheFile);
}

/** The caches of this bundle's earlier builds (same path and Node, other identity) are dead. */
function removeEarlierBuilds(cacheDir, prefix, cacheFile) {
  try {
    for (const name of readdirSync(cacheDir)) {
      const stale = name.startsWith(prefix) && name.endsWith('.v8') && name !== path.basename(cacheFile);
      if (stale) rmSync(path.join(cacheDir, name), { force: true });
    }
  } catch {
    // Another process removed them first, or the folder is not listable: nothing to tidy.
  }
}
