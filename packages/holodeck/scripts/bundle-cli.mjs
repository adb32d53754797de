#!/usr/bin/env node
// Bundles the holodeck CLI (dist/cli/main.js and what it imports) into dist/bundle/cli/.
//
// Why: Node's ESM loader resolves and compiles each of the CLI's ~400 module files one by one
// before the agent's CLI process can start (zod alone is ~100 files); one bundled file starts
// ~150 ms sooner, which is most of what `holodeck chat -p` costs over a bare SDK query()
// (bench/chat-vs-sdk.mjs). Lazily imported parts stay lazy (code splitting), and packages that
// must stay where they are installed are left external: the Claude Agent SDK (it locates its
// platform binary from its own folder), novarch (native better-sqlite3), tsx (module loader
// hooks), the MCP SDK and ajv (loaded lazily, only when function tools are used).
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

await build({
  absWorkingDir: packageRoot,
  entryPoints: { main: 'dist/cli/main.js' },
  // Same depth below the package root as dist/backends/claude/, so paths built from
  // import.meta.url (bin/mcp-cwd-launcher.js) resolve the same in both builds.
  outdir: 'dist/bundle/cli',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  minify: true,
  legalComments: 'linked',
  logLevel: 'warning',
  external: [
    '@anthropic-ai/claude-agent-sdk',
    '@modelcontextprotocol/sdk',
    '@modelcontextprotocol/sdk/*',
    'ajv',
    'ajv/*',
    'ajv-formats',
    'novarch',
    'tsx',
    'tsx/*',
  ],
  // commander is CommonJS: its bundled require() of Node built-ins needs a real require.
  banner: {
    js: "import { createRequire as __holodeckCreateRequire } from 'node:module';\nconst require = __holodeckCreateRequire(import.meta.url);",
  },
});
