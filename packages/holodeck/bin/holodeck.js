#!/usr/bin/env node
// Committed launcher so npm can link it before the build creates dist/.
// dist/bundle/cli/main.cjs is the CLI bundled and minified by scripts/bundle-cli.mjs; it runs
// with a V8 code cache (load-with-code-cache.js), and so does the Claude Agent SDK it loads. Both
// exist only for start-up time. With --debug the CLI bundle is loaded by plain require() with
// source maps on, so stack traces name the TypeScript files.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { loadWithCodeCache } from './load-with-code-cache.js';

const bundle = fileURLToPath(new URL('../dist/bundle/cli/main.cjs', import.meta.url));
if (process.argv.includes('--debug')) {
  process.setSourceMapsEnabled(true);
  createRequire(import.meta.url)(bundle);
} else {
  loadWithCodeCache(bundle);
}
