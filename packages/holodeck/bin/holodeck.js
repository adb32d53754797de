#!/usr/bin/env node
// Committed launcher so npm can link it before the build creates dist/.
// dist/bundle/cli/main.cjs is the CLI bundled and minified by scripts/bundle-cli.mjs; it runs
// with a V8 code cache (load-with-code-cache.js), and so do the Claude Agent SDK and the AI SDK it
// loads. They exist only for start-up time. With --debug the CLI bundle is loaded by plain
// require() with source maps on, so stack traces name the TypeScript files.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { loadWithCodeCache } from './load-with-code-cache.js';

// Node's fetch parses HTTP with undici's llhttp, a WebAssembly module. After about one response
// V8 finds its parser hot and starts optimising it in the background (TurboFan, ~100 ms of CPU),
// and process.exit() waits for that job: `holodeck chat -p` on an AI SDK provider took ~120 ms
// from its exit to its end (bench/chat-vs-ai-sdk.mjs, phase "process teardown"; 10 ms without).
// A 55x larger tiering budget (default 1.8 M) leaves a short run on the baseline compiler, whose
// code is fast enough to parse a few responses; WebAssembly that runs long (a long session, a
// user's tool) is still optimised, a little later. Set before any WebAssembly is compiled, and in
// every run the same way, so the code caches (which V8 ties to its flags) stay valid.
v8.setFlagsFromString('--wasm-tiering-budget=100000000');

/**
 * The commands of src/cli/main.ts. The CLI bundle keeps one code cache per command, each written
 * by that command's first run with what it compiled: a first `holodeck --version` or `validate`
 * would otherwise leave `chat` and `test` compiling their code on every later start.
 */
const COMMANDS = new Set(['chat', 'test', 'validate', 'ingest', 'schema']);
const command = process.argv.slice(2).find((arg) => !arg.startsWith('-'));

const bundle = fileURLToPath(new URL('../dist/bundle/cli/main.cjs', import.meta.url));
if (process.argv.includes('--debug')) {
  process.setSourceMapsEnabled(true);
  createRequire(import.meta.url)(bundle);
} else {
  loadWithCodeCache(bundle, { variant: command && COMMANDS.has(command) ? command : 'other' });
}
