import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const loader = fileURLToPath(new URL('../../../bin/load-with-code-cache.js', import.meta.url));
const execFileAsync = promisify(execFile);

// A small CommonJS "bundle" that uses what the real one uses: require, __dirname, module.exports,
// require() of an ES module beside it (as it loads src/import-module.ts), and a shebang line.
const BUNDLE = `#!/usr/bin/env node
const { basename } = require('node:path');
module.exports.name = basename(__dirname);
const { answer } = require('./answer.mjs');
setTimeout(() => process.stdout.write(\`answer=\${answer} dir=\${module.exports.name}\\n\`), 1);
`;

let dir: string;
let bundle: string;
/** The cache folder the runs are given (HOLODECK_CODE_CACHE_DIR), apart from the bundle's. */
let cacheDir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'code-cache-'));
  cacheDir = path.join(dir, 'user-cache');
  bundle = path.join(dir, 'main.cjs');
  await writeFile(bundle, BUNDLE);
  await writeFile(path.join(dir, 'answer.mjs'), 'export const answer = 42;\n');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the bundle through the loader in a fresh node; returns its output and the cache status. */
async function run(
  env: Record<string, string> = { HOLODECK_CODE_CACHE_DIR: cacheDir },
  options: { variant?: string } = {},
): Promise<{ stdout: string; status: string }> {
  const script = `import { loadWithCodeCache } from ${JSON.stringify(loader)};
    const { exports, cache } = loadWithCodeCache(${JSON.stringify(bundle)}, ${JSON.stringify(options)});
    process.stderr.write('status=' + cache + ' name=' + exports.name);`;
  const { stdout, stderr } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
  });
  const [, status = stderr, name] = /^status=(\w+) name=(.*)$/.exec(stderr) ?? [];
  // The bundle's module.exports reach the caller.
  expect(name).toBe(path.basename(path.dirname(bundle)));
  return { stdout, status };
}

const cacheFiles = async (folder = cacheDir) => readdir(folder).catch(() => []);
const CACHE_FILE = /^main\.cjs\.[0-9a-f]{16}\.[0-9a-f]{16}\.v8$/;

describe('loadWithCodeCache', () => {
  it('compiles the first time, writes the cache at exit, and uses it the next time', async () => {
    expect(await run()).toEqual({ stdout: `answer=42 dir=${path.basename(dir)}\n`, status: 'miss' });
    expect(await cacheFiles()).toEqual([expect.stringMatching(CACHE_FILE)]);
    expect(await run()).toEqual({ stdout: `answer=42 dir=${path.basename(dir)}\n`, status: 'hit' });
    // Nothing is written next to the bundle: the installed package stays as it was packed.
    expect((await readdir(dir)).sort()).toEqual(['answer.mjs', 'main.cjs', 'user-cache']);
  });

  it('defaults to $XDG_CACHE_HOME/holodeck/code-cache, else ~/.cache/holodeck/code-cache', async () => {
    const xdg = path.join(dir, 'xdg');
    expect(await run({ XDG_CACHE_HOME: xdg, HOME: path.join(dir, 'home') })).toMatchObject({
      status: 'miss',
    });
    expect(await cacheFiles(path.join(xdg, 'holodeck', 'code-cache'))).toEqual([
      expect.stringMatching(CACHE_FILE),
    ]);
    if (process.platform === 'darwin' || process.platform === 'win32') return;
    const home = path.join(dir, 'home');
    expect(await run({ HOME: home })).toMatchObject({ status: 'miss' });
    expect(await run({ HOME: home })).toMatchObject({ status: 'hit' });
    expect(await cacheFiles(path.join(home, '.cache', 'holodeck', 'code-cache'))).toEqual([
      expect.stringMatching(CACHE_FILE),
    ]);
  });

  it('keeps one cache per variant (the CLI: per command), each written by its first run', async () => {
    const env = { HOLODECK_CODE_CACHE_DIR: cacheDir };
    expect(await run(env, { variant: 'chat' })).toMatchObject({ status: 'miss' });
    expect(await run(env, { variant: 'validate' })).toMatchObject({ status: 'miss' });
    expect(await run(env, { variant: 'chat' })).toMatchObject({ status: 'hit' });
    expect(await run(env)).toMatchObject({ status: 'miss' });
    expect(await cacheFiles()).toEqual([
      expect.stringMatching(CACHE_FILE),
      expect.stringMatching(CACHE_FILE),
      expect.stringMatching(CACHE_FILE),
    ]);
    expect(await run(env, { variant: 'validate' })).toMatchObject({ status: 'hit' });
  });

  it('keeps bundles of the same name in different folders apart', async () => {
    await run();
    const other = path.join(dir, 'other');
    await mkdir(other);
    await writeFile(path.join(other, 'main.cjs'), BUNDLE);
    await writeFile(path.join(other, 'answer.mjs'), 'export const answer = 42;\n');
    const first = bundle;
    bundle = path.join(other, 'main.cjs');
    try {
      expect(await run()).toMatchObject({ status: 'miss' });
    } finally {
      bundle = first;
    }
    expect(await cacheFiles()).toHaveLength(2);
    expect(await run()).toMatchObject({ status: 'hit' });
  });

  it('ignores the cache of an earlier build of the same length (V8 would accept it), and removes it', async () => {
    await run();
    const [first] = await cacheFiles();
    // Same length, different text: V8's own check (the source length) would accept the old cache.
    await writeFile(bundle, BUNDLE.replace('answer=', 'ANSWER='));
    expect(await run()).toMatchObject({ stdout: expect.stringMatching(/^ANSWER=42/), status: 'miss' });
    const after = await cacheFiles();
    expect(after).toEqual([expect.stringMatching(CACHE_FILE)]);
    expect(after).not.toContain(first);
    expect(await run()).toMatchObject({ status: 'hit' });
  });

  it('survives a corrupt cache: V8 rejects it, the bundle still runs, and the cache is rewritten', async () => {
    await run();
    const [file] = await cacheFiles();
    await writeFile(path.join(cacheDir, file as string), 'not a code cache');
    expect(await run()).toMatchObject({ stdout: expect.stringMatching(/^answer=42/), status: 'rejected' });
    expect(await run()).toMatchObject({ status: 'hit' });
  });

  it('runs silently without a cache where it cannot write one (the cache folder is a file)', async () => {
    await writeFile(cacheDir, 'a file, not a folder');
    expect(await run()).toMatchObject({ stdout: expect.stringMatching(/^answer=42/), status: 'miss' });
    expect(await run()).toMatchObject({ status: 'miss' });
    expect((await readdir(dir)).sort()).toEqual(['answer.mjs', 'main.cjs', 'user-cache']);
  });

  it('does not change how errors in the bundle surface', async () => {
    await writeFile(bundle, "throw new Error('broken bundle');\n");
    const failure = await run().then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure.code).toBe(1);
    // The message, and a stack that names the bundle's file (as require() would).
    expect(failure.stderr).toContain('Error: broken bundle');
    expect(failure.stderr).toContain(bundle);
  });
});
