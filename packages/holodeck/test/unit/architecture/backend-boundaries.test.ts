import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The contract is the only seam between a backend and the rest of HoloDeck: this test reads the
// import graph of src/ (static and dynamic imports, as TypeScript sees them) and fails on a file
// that reaches into a backend's folder from outside it.
const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));
const BACKENDS = path.join(SRC, 'backends');
const SELECTOR = path.join(BACKENDS, 'select-backend.ts');
const MODEL_SDKS = [/^@anthropic-ai\/claude-agent-sdk/, /^ai$/, /^@ai-sdk\//];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

/** A folder of backends/ is a backend when it holds `<folder>-backend.ts` (claude, ai-sdk, ...). */
function backendFolders(): string[] {
  return readdirSync(BACKENDS)
    .map((entry) => path.join(BACKENDS, entry))
    .filter((folder) => statSync(folder).isDirectory())
    .filter((folder) => readdirSync(folder).includes(`${path.basename(folder)}-backend.ts`));
}

interface ImportEdge {
  from: string;
  specifier: string;
  /** The imported file for relative specifiers; undefined for packages. */
  resolved?: string;
}

function importsOf(file: string): ImportEdge[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map(({ fileName: specifier }) => ({
    from: file,
    specifier,
    ...(specifier.startsWith('.')
      ? { resolved: path.resolve(path.dirname(file), specifier).replace(/\.js$/, '.ts') }
      : {}),
  }));
}

const files = sourceFiles(SRC);
const edges = files.flatMap(importsOf);
const relative = (file: string) => path.relative(SRC, file);
const inside = (folder: string, file: string) => file.startsWith(`${folder}${path.sep}`);

describe('backend boundaries', () => {
  it('finds the import graph and both backends (the test itself can see what it checks)', () => {
    expect(edges.length).toBeGreaterThan(100);
    expect(
      backendFolders()
        .map((folder) => path.basename(folder))
        .sort(),
    ).toEqual(['ai-sdk', 'claude']);
  });

  it('nothing outside a backend folder imports from it, except select-backend.ts', () => {
    const violations = backendFolders().flatMap((folder) =>
      edges
        .filter((edge) => edge.resolved !== undefined && inside(folder, edge.resolved))
        .filter((edge) => !inside(folder, edge.from) && edge.from !== SELECTOR)
        .map((edge) => `${relative(edge.from)} imports ${edge.specifier}`),
    );
    expect(violations).toEqual([]);
  });

  it('backends are constructed only in select-backend.ts', () => {
    const constructions = files
      .filter((file) => file !== SELECTOR && !backendFolders().some((folder) => inside(folder, file)))
      .filter((file) => /\bnew\s+\w+Backend\s*\(/.test(readFileSync(file, 'utf8')))
      .map(relative);
    expect(constructions).toEqual([]);
  });

  it('model SDKs are imported only inside backend folders (and novarch)', () => {
    const violations = edges
      .filter((edge) => MODEL_SDKS.some((pattern) => pattern.test(edge.specifier)))
      .filter((edge) => !backendFolders().some((folder) => inside(folder, edge.from)))
      .map((edge) => `${relative(edge.from)} imports ${edge.specifier}`);
    expect(violations).toEqual([]);
  });
});
