#!/usr/bin/env node
// Bundles the holodeck CLI (dist/cli/main.js and what it imports) into dist/bundle/cli/main.cjs,
// and the Claude Agent SDK into dist/bundle/vendor/claude-agent-sdk.cjs.
//
// Why: start-up time, which is most of what `holodeck chat -p` costs over a bare SDK query()
// (bench/chat-vs-sdk.mjs). Node's ESM loader resolves and compiles each of the CLI's ~400 module
// files one by one (zod alone is ~100 files); one bundled file starts ~150 ms sooner. Both are
// CommonJS because on Node 20 only a classic script can use a V8 code cache
// (bin/load-with-code-cache.js): it saves most of compiling the CLI (~40 ms) and the SDK's 1.4 MB
// (~80 ms -> ~40 ms). Lazily imported parts are still evaluated lazily (esbuild wraps them).
// Left external and loaded by require() (Node >= 20.19 can require ES modules): novarch (native
// better-sqlite3), tsx (module loader hooks), the MCP SDK, ajv, the AI SDK, and src/import-module.ts.
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
// Same depth below the package root as dist/backends/claude/, so paths built from
// import.meta.url (bin/mcp-cwd-launcher.js) resolve the same in both builds.
const outdir = 'dist/bundle/cli';
const vendorDir = 'dist/bundle/vendor';
const SDK = '@anthropic-ai/claude-agent-sdk';

// Old bundles go with every build. Their code caches live in the user's cache folder
// (bin/load-with-code-cache.js): the first run of the new build replaces them.
rmSync(new URL('../dist/bundle', import.meta.url), { recursive: true, force: true });

const common = {
  absWorkingDir: packageRoot,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: true,
  logLevel: 'warning',
  metafile: true,
};

// The SDK as installed, converted to CommonJS. It finds its files (and, when not given
// pathToClaudeCodeExecutable, its platform binary) from import.meta.url: that stays the URL of
// the installed sdk.mjs, so nothing it looks up moves.
const sdkEntry = createRequire(import.meta.url).resolve(SDK);
const sdk = await build({
  ...common,
  entryPoints: { 'claude-agent-sdk': sdkEntry },
  outdir: vendorDir,
  legalComments: 'inline',
  define: { 'import.meta.url': '__holodeckSdkUrl' },
  banner: {
    js: `${sdkHeaderComment(sdkEntry)}\nvar __holodeckSdkUrl = require('node:url').pathToFileURL(require.resolve('${SDK}')).href;`,
  },
});

/** The SDK's own header (copyright, version), which esbuild would drop: it is not a legal comment. */
function sdkHeaderComment(file) {
  const lines = readFileSync(file, 'utf8').split('\n', 20).slice(1); // after the shebang
  const header = lines.slice(
    0,
    lines.findIndex((line) => line !== '' && !line.startsWith('//')),
  );
  return [...header.filter((line) => line.startsWith('//')), `// Converted to CommonJS from ${file}.`].join(
    '\n',
  );
}

const externals = {
  name: 'holodeck-externals',
  setup(build) {
    // import() of user modules needs a real ES module (src/import-module.ts): require it from
    // dist/, where tsc put it, instead of bundling it.
    build.onResolve({ filter: /\/import-module\.js$/ }, () => ({
      path: '../../import-module.js',
      external: true,
    }));
    // The SDK comes from the vendored CommonJS copy above, through the code cache.
    build.onResolve({ filter: new RegExp(`^${SDK}$`) }, (args) =>
      args.namespace === 'vendor' ? { path: SDK, external: true } : { path: SDK, namespace: 'vendor' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vendor' }, () => ({
      // Without the vendored copy (a package published without it), the installed SDK is used.
      contents: `const vendored = require('node:path').join(__dirname, '../vendor/claude-agent-sdk.cjs');
        module.exports = require('node:fs').existsSync(vendored)
          ? require('../../../bin/load-with-code-cache.js').loadWithCodeCache(vendored).exports
          : require('${SDK}');`,
      loader: 'js',
    }));
    build.onResolve({ filter: /\/load-with-code-cache\.js$/ }, (args) => ({
      path: args.path,
      external: true,
    }));
  },
};

const cli = await build({
  ...common,
  entryPoints: { main: 'dist/cli/main.js' },
  outdir,
  sourcemap: 'linked',
  legalComments: 'linked',
  plugins: [externals],
  external: [
    // The AI SDK (~1.8 MB) is required only by the AI SDK backend's initialize(): kept out of the
    // bundle every Anthropic start-up compiles.
    'ai',
    '@ai-sdk/*',
    '@modelcontextprotocol/sdk',
    '@modelcontextprotocol/sdk/*',
    'ajv',
    'ajv/*',
    'ajv-formats',
    'novarch',
    'tsx',
    'tsx/*',
    // Retrieval tools: native modules (better-sqlite3, sqlite-vec's loadable extension), and
    // parsers, the tokenizer's ranks and the PostgreSQL client, required only by agents that use them.
    'better-sqlite3',
    'sqlite-vec',
    'js-tiktoken',
    'js-tiktoken/*',
    'unpdf',
    'mammoth',
    'turndown',
    'csv-parse',
    'csv-parse/*',
    'kysely',
    'pg',
  ],
  // CommonJS has no import.meta: give the sources the bundle's own URL instead.
  define: { 'import.meta.url': '__holodeckBundleUrl' },
  banner: { js: "var __holodeckBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
});

// load-with-code-cache.js runs both bundles where import() cannot work: refuse to build one.
for (const result of [sdk, cli]) {
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    const dynamic = output.imports.filter((entry) => entry.kind === 'dynamic-import');
    if (dynamic.length > 0) {
      const names = dynamic.map((entry) => entry.path).join(', ');
      throw new Error(`${file} calls import(${names}): import it from src/import-module.ts instead`);
    }
  }
}
