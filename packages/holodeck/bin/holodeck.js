#!/usr/bin/env node
// Committed launcher so npm can link it before the build creates dist/.
// dist/bundle/ is the CLI bundled and minified by scripts/bundle-cli.mjs: it starts ~100 ms
// sooner than the module-per-file build in dist/cli/. With --debug, stack traces are mapped
// back to the TypeScript sources.
if (process.argv.includes('--debug')) process.setSourceMapsEnabled(true);
await import('../dist/bundle/cli/main.mjs');
