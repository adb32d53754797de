// @ts-check
// Where a process spent its CPU, by package: reads a V8 .cpuprofile (node --cpu-prof) and charges
// each sample to the innermost stack frame that belongs to a file of some package (Node's own
// module loader, compiling and evaluating a file, is charged to the package whose code asked for
// it, so "zod" includes loading zod's ~100 files). Used by bench/chat-vs-ai-sdk.mjs --profile.
import { readFileSync } from 'node:fs';
import { median, table } from './bench-format.mjs';

/** The group of a script URL: an npm package, a part of HoloDeck's build, or undefined (Node internals). */
function groupOf(url) {
  if (!url || url.startsWith('node:')) return undefined;
  const file = url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (pkg) return pkg[1];
  if (file.includes('/dist/bundle/vendor/claude-agent-sdk')) return 'Claude Agent SDK (vendored bundle)';
  const vendored = /\/dist\/bundle\/vendor\/([^/]+)$/.exec(file);
  if (vendored) return `holodeck vendored bundle ${vendored[1]}`;
  if (file.includes('/dist/bundle/cli/')) return 'holodeck CLI bundle (its code, zod, yaml, commander)';
  if (file.includes('/packages/holodeck/bin/')) return 'holodeck bin/ (launcher, code cache)';
  if (file.includes('/packages/holodeck/dist/')) return 'holodeck dist/ (unbundled ES modules)';
  if (file.includes('/packages/')) return `workspace ${/\/packages\/([^/]+)/.exec(file)?.[1]}`;
  if (file.includes('/bench/')) return 'bench script';
  return file;
}

const SPECIAL = {
  '(garbage collector)': 'GC',
  '(program)': 'V8 (program: compile, deserialize)',
  '(idle)': 'idle',
};

/** Milliseconds of CPU samples per group in one profile file. */
export function cpuProfileGroups(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const groupOfNode = new Map();
  const resolve = (id) => {
    if (groupOfNode.has(id)) return groupOfNode.get(id);
    const node = nodes.get(id);
    const special = SPECIAL[node.callFrame.functionName];
    const group =
      special ??
      groupOf(node.callFrame.url) ??
      (parent.has(id) ? resolve(parent.get(id)) : 'node bootstrap and internals');
    groupOfNode.set(id, group);
    return group;
  };
  const groups = new Map();
  profile.samples.forEach((id, index) => {
    const group = resolve(id);
    groups.set(group, (groups.get(group) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  return groups;
}

/**
 * One column per side (`{label, profiles}`, each profile a cpuProfileGroups() map): the median ms
 * of every group, largest first, groups under 3 ms on every side left out, and the total.
 */
export function cpuProfileTable(sides, title) {
  const groups = new Set(sides.flatMap((side) => side.profiles.flatMap((profile) => [...profile.keys()])));
  const of = (side, group) => median(side.profiles.map((profile) => profile.get(group) ?? 0));
  const total = (side) =>
    median(side.profiles.map((profile) => [...profile.values()].reduce((sum, value) => sum + value, 0)));
  const ms = (value) => value.toFixed(0);
  const rows = [...groups]
    .map((group) => ({ group, values: sides.map((side) => of(side, group)) }))
    .filter((row) => Math.max(...row.values) >= 3)
    .sort((a, b) => Math.max(...b.values) - Math.max(...a.values))
    .map((row) => [row.group, ...row.values.map(ms)]);
  rows.push(['total sampled (profiler overhead included)', ...sides.map((side) => ms(total(side)))]);
  return [
    table([title, ...sides.map((side) => side.label)], rows),
    '  each sample is charged to the innermost frame of a package file: loading and compiling a package counts to the',
    '  package whose code required it; groups under 3 ms on every side are left out; profiled runs are not timed above',
  ].join('\n');
}
