import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SOURCE = fileURLToPath(new URL('../../../src', import.meta.url));
const GOVERNOR = path.join(SOURCE, 'governor', 'novarch-tool-governor.ts');

/** Every module specifier a source file names: static imports and exports (types too), and import(). */
function specifiersOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [
    ...text.matchAll(/\bfrom\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ];
  return found.map((match) => match[1] ?? '');
}

/** The source files `entry` reaches through relative specifiers, itself included. */
function moduleGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (graph.has(file)) continue;
    const specifiers = specifiersOf(file);
    graph.set(file, specifiers);
    for (const specifier of specifiers)
      if (specifier.startsWith('.'))
        pending.push(path.resolve(path.dirname(file), specifier).replace(/\.js$/, '.ts'));
  }
  return graph;
}

describe('NovarchToolGovernor imports', () => {
  /**
   * Proves the governor is framework-neutral: nothing it reaches names the Claude Agent SDK, not
   * even as types or through the decorator floor's lazy loader, so an agent loop on another
   * framework neither loads the SDK nor needs its types.
   */
  it('reaches no module that names the Claude Agent SDK', () => {
    const graph = moduleGraph(GOVERNOR);
    const sdkUsers = [...graph]
      .filter(([, specifiers]) =>
        specifiers.some(
          (specifier) => specifier.includes('claude-agent-sdk') || specifier.includes('augur-async-tool'),
        ),
      )
      .map(([file]) => path.relative(SOURCE, file));
    expect(sdkUsers).toEqual([]);
    const reached = [...graph.keys()].map((file) => path.relative(SOURCE, file));
    expect(reached).toEqual(
      expect.arrayContaining(['governor/judge-governed-write.ts', 'engine/novarch-engine.ts']),
    );
    expect(
      reached.some(
        (file) => file.startsWith('gate/novarch-hook-gate') || file.includes('load-claude-agent-sdk'),
      ),
    ).toBe(false);
  });
});
