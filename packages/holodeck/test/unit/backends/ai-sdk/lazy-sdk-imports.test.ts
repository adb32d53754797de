import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SOURCE = fileURLToPath(new URL('../../../../src/backends/ai-sdk/', import.meta.url));
const SDK_PACKAGE = /^(ai|@ai-sdk\/.*|@modelcontextprotocol\/.*)$/;

/** Specifiers of the static value imports of a file (type-only imports and import() left out). */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  for (const match of text.matchAll(/^import\s+(type\s+)?([^'"]*?)\s*from\s+'([^']+)';/gms)) {
    const [, typeOnly, bindings = '', specifier = ''] = match;
    const allTypes =
      /^\{[^}]*\}$/s.test(bindings) &&
      bindings
        .slice(1, -1)
        .split(',')
        .every((name) => /^\s*(type\s|$)/.test(name));
    if (!typeOnly && !allTypes) specifiers.push(specifier);
  }
  for (const match of text.matchAll(/^import\s+'([^']+)';/gm)) specifiers.push(match[1] ?? '');
  return specifiers;
}

/** Every package the module graph from `entry` reaches through static imports of this folder's files. */
function reachablePackages(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of staticImports(file)) {
      if (specifier.startsWith('./')) visit(path.join(SOURCE, specifier.replace(/\.js$/, '.ts')));
      else if (!specifier.startsWith('.')) packages.set(specifier, path.basename(file));
    }
  };
  visit(path.join(SOURCE, entry));
  return packages;
}

describe('the AI SDK backend loads its SDKs on demand', () => {
  it.each(['ai-sdk-backend.ts', 'ai-sdk-profile.ts'])(
    '%s imports no model or MCP SDK statically',
    (entry) => {
      const sdkImports = [...reachablePackages(entry)].filter(([specifier]) => SDK_PACKAGE.test(specifier));
      expect(sdkImports).toEqual([]);
    },
  );

  it('the runtime does (the check above would see them)', () => {
    expect([...reachablePackages('start-ai-sdk-runtime.ts').keys()]).toEqual(
      expect.arrayContaining(['ai', '@ai-sdk/openai', '@modelcontextprotocol/sdk/client/index.js']),
    );
  });
});
