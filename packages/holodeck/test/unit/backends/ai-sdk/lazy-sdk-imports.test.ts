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

  it('the runtime imports only `ai` statically: the provider, the MCP client and ajv on use', () => {
    // Only the agent's provider is imported (create-language-model.ts), the MCP client only for
    // mcp tools (connect-mcp-servers.ts), ajv only for function tools or a response_format.
    const packages = [...reachablePackages('start-ai-sdk-runtime.ts')];
    expect(
      packages.filter(([specifier]) => SDK_PACKAGE.test(specifier) || specifier.startsWith('ajv')),
    ).toEqual([['ai', expect.any(String)]]);
    const outsideFolder = staticImports(path.join(SOURCE, 'start-ai-sdk-runtime.ts')).filter((specifier) =>
      specifier.startsWith('../'),
    );
    expect(outsideFolder.filter((specifier) => /json-schema|tools\/index/.test(specifier))).toEqual([]);
  });

  it('the modules loaded on use do import them (the checks above would see them)', () => {
    expect([...reachablePackages('connect-mcp-servers.ts').keys()]).toEqual(
      expect.arrayContaining(['@modelcontextprotocol/sdk/client/index.js']),
    );
    expect([...reachablePackages('run-turn.ts').keys()]).toEqual(expect.arrayContaining(['ai']));
    expect(staticImports(path.join(SOURCE, 'start-ai-sdk-runtime.ts'))).toEqual(
      expect.arrayContaining(['ai', './create-language-model.js', './run-turn.js']),
    );
  });
});
