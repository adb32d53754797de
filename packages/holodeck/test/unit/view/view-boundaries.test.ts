import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The view reads saved runs (through runner/report) and imports no backend; its browser code
// (client/, pages/) imports nothing outside src/view/ but marked, so the bundle holds no Node code.
const VIEW = fileURLToPath(new URL('../../../src/view/', import.meta.url));

function files(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) return files(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

function imports(file: string): string[] {
  return ts
    .preProcessFile(readFileSync(file, 'utf8'), true, true)
    .importedFiles.map(({ fileName }) =>
      fileName.startsWith('.') ? path.resolve(path.dirname(file), fileName) : fileName,
    );
}

/** Packages the browser bundle may hold: marked renders answers (pages/render-markdown.ts), as in the chat. */
const BROWSER_PACKAGES = ['marked'];

describe('view boundaries', () => {
  const all = files(VIEW);

  it('imports no backend', () => {
    expect(all.length).toBeGreaterThan(15);
    const violations = all.flatMap((file) =>
      imports(file)
        .filter(
          (target) =>
            target.includes(`${path.sep}backends${path.sep}`) ||
            /claude-agent-sdk|^ai$|^@ai-sdk/.test(target),
        )
        .map((target) => `${path.relative(VIEW, file)} imports ${target}`),
    );
    expect(violations).toEqual([]);
  });

  it('keeps the browser code inside src/view/', () => {
    const browser = all.filter(
      (file) => /[\\/](client|pages)[\\/]/.test(file) || path.basename(file) === 'view-data.ts',
    );
    const violations = browser.flatMap((file) =>
      imports(file)
        .filter((target) => !target.startsWith(VIEW) && !BROWSER_PACKAGES.includes(target))
        .map((target) => `${path.relative(VIEW, file)} imports ${target}`),
    );
    expect(violations).toEqual([]);
  });
});
