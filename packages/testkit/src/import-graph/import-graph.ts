import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One import of a source file: static, `export … from`, type-only or dynamic `import()`. */
export interface ImportEdge {
  /** The importing file, absolute. */
  from: string;
  specifier: string;
  /** The imported source file for relative specifiers (`.js` mapped to `.ts`); else undefined. */
  resolved?: string;
}

/** Every `.ts` file under `directory`, recursively. */
export function sourceFilesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) return sourceFilesUnder(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

/** The import graph of a source folder, as TypeScript's pre-processor reads each file. */
export function readImportGraph(sourceRoot: string): ImportEdge[] {
  return sourceFilesUnder(sourceRoot).flatMap((file) =>
    ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map(({ fileName }) => ({
      from: file,
      specifier: fileName,
      ...(fileName.startsWith('.')
        ? { resolved: path.resolve(path.dirname(file), fileName).replace(/\.js$/, '.ts') }
        : {}),
    })),
  );
}
