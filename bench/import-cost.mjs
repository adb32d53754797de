#!/usr/bin/env node
// @ts-check
// What `holodeck chat -p` pays in module imports before it can spawn the claude CLI, next to the
// bare SDK. Each entry is imported in a fresh `node` process (N times, interleaved); the time is
// from the first import to the last one settling, so Node startup is left out. Entries overlap
// (the MCP SDK loads zod and ajv too), so the rows do not add up. See bench/README.md.
//
//   node bench/import-cost.mjs [--samples 5]
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './bench-format.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const holodeck = path.join(root, 'packages/holodeck');
const dist = (file) => pathToFileURL(path.join(holodeck, 'dist', file)).href;

/** @type {[label: string, specifiers: string[]][]} */
const ENTRIES = [
  ['bare: @anthropic-ai/claude-agent-sdk', ['@anthropic-ai/claude-agent-sdk']],
  [
    'holodeck chat -p graph (includes the SDK)',
    ['commander', dist('cli/commands/chat-command.js'), dist('chat/run-one-shot.js')],
  ],
  ['  zod', ['zod']],
  ['  yaml', ['yaml']],
  ['  commander', ['commander']],
  ['  ajv + 2019 + 2020 + ajv-formats', ['ajv', 'ajv/dist/2019.js', 'ajv/dist/2020.js', 'ajv-formats']],
  [
    '  @modelcontextprotocol/sdk server/mcp + types',
    ['@modelcontextprotocol/sdk/server/mcp.js', '@modelcontextprotocol/sdk/types.js'],
  ],
  ['  dist/config (schemas, loader)', [dist('config/index.js')]],
  ['  dist/backends/claude/function-tools-server', [dist('backends/claude/function-tools-server.js')]],
];

function importOnce(specifiers) {
  const code = [
    "const { performance } = await import('node:perf_hooks');",
    'const start = performance.now();',
    `for (const specifier of ${JSON.stringify(specifiers)}) await import(specifier);`,
    'process.stdout.write(String(performance.now() - start));',
  ].join('\n');
  // cwd = packages/holodeck, so bare specifiers resolve as HoloDeck's own imports do.
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: holodeck,
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`importing ${specifiers.join(', ')} failed:\n${child.stderr}`);
  return Number(child.stdout);
}

const { values } = parseArgs({ options: { samples: { type: 'string', default: '5' } } });
const samples = Number(values.samples);
if (!Number.isInteger(samples) || samples < 1) throw new Error('--samples must be an integer >= 1');

const times = ENTRIES.map(() => /** @type {number[]} */ ([]));
for (let round = 0; round < samples + 1; round++) {
  ENTRIES.forEach(([, specifiers], index) => {
    const elapsed = importOnce(specifiers);
    if (round > 0) times[index].push(elapsed); // round 0 warms the file cache
  });
}
const width = Math.max(...ENTRIES.map(([label]) => label.length));
process.stdout.write(`import cost in a fresh node process, median of ${samples} (ms)\n`);
ENTRIES.forEach(([label], index) => {
  process.stdout.write(`${label.padEnd(width)}  ${median(times[index]).toFixed(0).padStart(5)}\n`);
});
