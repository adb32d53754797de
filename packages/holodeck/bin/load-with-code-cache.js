// Loads a CommonJS bundle through vm.Script with a V8 code cache, so starts after the first one
// skip compiling it (bench/chat-vs-sdk.mjs). Node 20 has no compile cache of its own
// (module.enableCompileCache() arrived in Node 22) and none at all for ES modules, which is why
// the CLI and the Claude Agent SDK are bundled as CommonJS (scripts/bundle-cli.mjs).
//
// The cache lives next to the bundle, in .code-cache/, named after the bundle file's identity
// (size, modification time in ns, inode), the Node version, the platform and the V8 flags: a
// rebuilt bundle or another Node never reads a stale cache (V8 itself only compares the source
// length). It is written once, at exit, so it also holds the functions the run compiled lazily.
// A cache is an optimisation only: when it cannot be written (read-only install) or V8 rejects
// it, the bundle is compiled as usual.
//
// The bundle must not call import(): a vm.Script has no loader for it without an experimental
// flag (scripts/bundle-cli.mjs fails the build if one is left; ES modules are require()d).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/**
 * Evaluates `file` (a CommonJS module) as Node's require() would, with a code cache.
 * @param {string} file absolute path of the bundle
 * @returns {{ exports: unknown, cache: 'hit' | 'miss' | 'rejected' }} the module's exports, and
 *   what became of the cache: used, absent, or refused by V8
 */
export function loadWithCodeCache(file) {
  const source = readFileSync(file, 'utf8');
  const cacheDir = path.join(path.dirname(file), '.code-cache');
  const cacheFile = path.join(cacheDir, `${path.basename(file)}.${cacheKey(file)}.v8`);
  const cachedData = readIfPresent(cacheFile);
  const script = new vm.Script(Module.wrap(commentOutShebang(source)), { filename: file, cachedData });
  const cache = !cachedData ? 'miss' : script.cachedDataRejected ? 'rejected' : 'hit';
  if (cache !== 'hit') process.once('exit', () => writeCache(script, cacheDir, cacheFile));

  const module = new Module(file);
  module.filename = file;
  module.paths = Module._nodeModulePaths(path.dirname(file));
  const run = script.runInThisContext();
  run.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  module.loaded = true;
  return { exports: module.exports, cache };
}

function cacheKey(file) {
  const { size, mtimeNs, ino } = statSync(file, { bigint: true });
  return createHash('sha256')
    .update(`${size}\0${mtimeNs}\0${ino}\0${process.version}\0${process.platform}\0${process.arch}\0`)
    .update(`${process.execArgv.join(' ')}\0${process.env.NODE_OPTIONS ?? ''}`)
    .digest('hex')
    .slice(0, 32);
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

function writeCache(script, cacheDir, cacheFile) {
  const partial = `${cacheFile}.${process.pid}.tmp`;
  try {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(partial, script.createCachedData());
    renameSync(partial, cacheFile); // atomic: concurrent first runs never read half a file
  } catch {
    // Not writable (e.g. a read-only global install): later runs compile as this one did.
    try {
      rmSync(partial, { force: true });
    } catch {
      // .code-cache is not a folder: there is no partial file either.
    }
  }
}
