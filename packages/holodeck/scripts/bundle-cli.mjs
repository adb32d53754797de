#!/usr/bin/env node
// Bundles the holodeck CLI (dist/cli/main.js and what it imports) into dist/bundle/cli/main.cjs,
// the Claude Agent SDK into dist/bundle/vendor/claude-agent-sdk.cjs, and the AI SDK (ai and the
// three providers, with what they import) into dist/bundle/vendor/ai-sdk.cjs.
//
// Why: start-up time, which is most of what `holodeck chat -p` costs over a bare SDK script
// (bench/chat-vs-sdk.mjs, bench/chat-vs-ai-sdk.mjs). Node's ESM loader resolves and compiles each
// of the CLI's ~400 module files one by one (zod alone is ~100 files); one bundled file starts
// ~150 ms sooner. All are CommonJS because on Node 20 only a classic script can use a V8 code
// cache (bin/load-with-code-cache.js): it saves most of compiling the CLI (~40 ms), the Claude
// SDK's 1.4 MB (~80 ms -> ~40 ms) and the AI SDK's ~150 files (30-80 ms). Lazily imported parts
// are still evaluated lazily (esbuild wraps them): a vendored bundle is loaded only when the
// backend that needs it starts, and of the AI SDK bundle only the parts an agent uses run (the
// agent's provider, not the other two).
// Left external and loaded by require() (Node >= 20.19 can require ES modules): novarch (native
// better-sqlite3), tsx (module loader hooks), the MCP SDK, ajv, the retrieval tools' packages,
// and src/import-module.ts and src/import-package.ts.
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
/**
 * The AI SDK packages the AI SDK backend imports, each a part of the vendored AI SDK bundle that
 * is evaluated on its first import: `ai` by the backend's runtime, a provider by the agents on it.
 */
const AI_SDK_PARTS = ['ai', '@ai-sdk/openai', '@ai-sdk/azure', '@ai-sdk/openai-compatible'];
const LOADER = '../../../bin/load-with-code-cache.js';

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

// The AI SDK as installed, in one CommonJS file: an object whose getters each require one part,
// so a part and what only it imports are evaluated on first use. A part is its package's ES module
// build (`export * from 'ai'`), as the bare AI SDK script imports it: esbuild hoists ES modules into
// one scope, and their bundle is ~40% smaller and starts ~20 ms (CPU) sooner than the CommonJS
// builds would. What the parts share (@ai-sdk/provider-utils, zod) is one copy, as in node_modules.
const AI_SDK_PART = 'holodeck-ai-sdk-part:';
const aiSdk = await build({
  ...common,
  stdin: {
    contents: `module.exports = {\n${AI_SDK_PARTS.map(
      (name) => `  get ${JSON.stringify(name)}() { return require(${JSON.stringify(AI_SDK_PART + name)}); },`,
    ).join('\n')}\n};`,
    resolveDir: packageRoot,
    sourcefile: 'ai-sdk-vendor-entry.cjs',
    loader: 'js',
  },
  plugins: [
    {
      name: 'holodeck-ai-sdk-parts',
      setup(build) {
        build.onResolve({ filter: new RegExp(`^${AI_SDK_PART}`) }, (args) => ({
          path: args.path.slice(AI_SDK_PART.length),
          namespace: 'ai-sdk-part',
        }));
        build.onLoad({ filter: /.*/, namespace: 'ai-sdk-part' }, (args) => ({
          contents: `export * from ${JSON.stringify(args.path)};`,
          resolveDir: packageRoot,
          loader: 'js',
        }));
      },
    },
  ],
  outfile: `${vendorDir}/ai-sdk.cjs`,
  legalComments: 'inline',
  banner: {
    js: `// ${AI_SDK_PARTS.join(', ')} and what they import, as one CommonJS file (scripts/bundle-cli.mjs).`,
  },
});

const externals = {
  name: 'holodeck-externals',
  setup(build) {
    // import() of user modules needs a real ES module (src/import-module.ts): require it from
    // dist/, where tsc put it, instead of bundling it.
    build.onResolve({ filter: /\/import-module\.js$/ }, () => ({
      path: '../../import-module.js',
      external: true,
    }));
    // The same for packages only import() can load (src/import-package.ts).
    build.onResolve({ filter: /\/import-package\.js$/ }, () => ({
      path: '../../import-package.js',
      external: true,
    }));
    // The SDK comes from the vendored CommonJS copy above, through the code cache.
    build.onResolve({ filter: new RegExp(`^${SDK}$`) }, (args) =>
      args.namespace === 'vendor' ? { path: SDK, external: true } : { path: SDK, namespace: 'vendor' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vendor' }, () => ({
      // Without the vendored copy (a package published without it), the installed SDK is used.
      contents: `const { loadWithCodeCache, traceLoad } = require('${LOADER}');
        const vendored = require('node:path').join(__dirname, '../vendor/claude-agent-sdk.cjs');
        if (require('node:fs').existsSync(vendored)) {
          module.exports = loadWithCodeCache(vendored).exports;
        } else {
          traceLoad('installed ${SDK}');
          module.exports = require('${SDK}');
        }`,
      loader: 'js',
    }));
    // Each AI SDK package is its part of the vendored bundle (loaded, with its code cache, on the
    // first import of any part), or without the bundle the installed package.
    const aiSdkPart = new RegExp(
      `^(${AI_SDK_PARTS.map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})$`,
    );
    build.onResolve({ filter: aiSdkPart }, (args) =>
      args.namespace === 'ai-sdk'
        ? { path: args.path, external: true }
        : { path: args.path, namespace: 'ai-sdk' },
    );
    build.onResolve({ filter: /^holodeck:ai-sdk-bundle$/ }, (args) => ({
      path: args.path,
      namespace: 'ai-sdk',
    }));
    build.onLoad({ filter: /^holodeck:ai-sdk-bundle$/, namespace: 'ai-sdk' }, () => ({
      contents: `const { loadWithCodeCache, traceLoad } = require('${LOADER}');
        const vendored = require('node:path').join(__dirname, '../vendor/ai-sdk.cjs');
        let bundle;
        module.exports = (name, installed) => {
          bundle ??= require('node:fs').existsSync(vendored) ? loadWithCodeCache(vendored).exports : null;
          traceLoad(\`\${bundle ? 'vendored' : 'installed'} \${name}\`);
          return bundle ? bundle[name] : installed();
        };`,
      loader: 'js',
    }));
    build.onLoad({ filter: /.*/, namespace: 'ai-sdk' }, (args) => ({
      contents: `module.exports = require('holodeck:ai-sdk-bundle')(${JSON.stringify(args.path)}, () => require(${JSON.stringify(args.path)}));`,
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
    // The AI SDK (~1.8 MB) is required only by the AI SDK backend's initialize(), from its own
    // vendored bundle (the plugin above): kept out of the bundle every Anthropic start-up compiles.
    // Anything else of it, had a source file imported it, stays external too.
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
    // The protocol SDKs of `holodeck serve` (~350 kB of source), required only by that command.
    '@a2a-js/sdk',
    '@a2a-js/sdk/*',
    '@ag-ui/core',
    '@ag-ui/core/*',
    // OpenTelemetry tracing of `holodeck serve` (src/telemetry), required only when it is on.
    '@opentelemetry/api',
    '@opentelemetry/sdk-trace',
    '@opentelemetry/resources',
    '@opentelemetry/exporter-trace-otlp-http',
  ],
  // CommonJS has no import.meta: give the sources the bundle's own URL instead.
  define: { 'import.meta.url': '__holodeckBundleUrl' },
  banner: { js: "var __holodeckBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
});

// load-with-code-cache.js runs both bundles where import() cannot work: refuse to build one.
for (const result of [sdk, aiSdk, cli]) {
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    const dynamic = output.imports.filter((entry) => entry.kind === 'dynamic-import');
    if (dynamic.length > 0) {
      const names = dynamic.map((entry) => entry.path).join(', ');
      throw new Error(`${file} calls import(${names}): import it from src/import-module.ts instead`);
    }
  }
}
