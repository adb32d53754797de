import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { selectBackend } from '../../../src/backends/select-backend.js';
import { CredentialError } from '../../../src/errors.js';
import { loadedAgent } from './ai-sdk/loaded-agent-fixture.js';

const SELECTOR = fileURLToPath(new URL('../../../src/backends/select-backend.ts', import.meta.url));
const BACKEND_MODULES = ['./claude/claude-backend.js', './ai-sdk/ai-sdk-backend.js'];

/** The module specifiers of select-backend.ts: static value imports, and import() calls. */
function selectorImports(): { static: string[]; dynamic: string[] } {
  const source = ts.createSourceFile(SELECTOR, readFileSync(SELECTOR, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = { static: [] as string[], dynamic: [] as string[] };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) {
      found.static.push((node.moduleSpecifier as ts.StringLiteral).text);
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      if (specifier && ts.isStringLiteral(specifier)) found.dynamic.push(specifier.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('selectBackend', () => {
  it('imports each backend only with import(), so the one not selected is never loaded', () => {
    // The CLI bundle evaluates a statically imported module at start-up: the Claude backend
    // would bring the 1.4 MB Claude Agent SDK into every openai start (bench/chat-vs-ai-sdk.mjs).
    const imports = selectorImports();
    expect(imports.static.filter((specifier) => BACKEND_MODULES.includes(specifier))).toEqual([]);
    expect(imports.dynamic.sort()).toEqual([...BACKEND_MODULES].sort());
  });

  it('has no warnings and nothing to tear down before its first call', async () => {
    const backend = selectBackend(loadedAgent());
    expect(backend.warnings).toEqual([]);
    await expect(backend.teardown()).resolves.toBeUndefined();
  });

  it('hands every call to the selected backend, and a failed initialize() may be tried again', async () => {
    // No OPENAI_API_KEY: the AI SDK backend's own credential check answers.
    const backend = selectBackend(loadedAgent());
    await expect(backend.initialize()).rejects.toBeInstanceOf(CredentialError);
    await expect(backend.initialize()).rejects.toThrow(/OPENAI_API_KEY/);
    await expect(backend.invokeOnce('hi')).rejects.toThrow(/initialize\(\) must be called first/);
    expect(backend.warnings).toEqual([]);
    await backend.teardown();
  });

  it('selects the Claude backend for provider anthropic', async () => {
    const backend = selectBackend(
      loadedAgent({ model: { provider: 'anthropic', name: 'claude-sonnet-4-5' } }),
    );
    await expect(backend.invokeOnce('hi')).rejects.toThrow(
      /ClaudeBackend\.initialize\(\) must be called first/,
    );
    await backend.teardown();
  });
});
