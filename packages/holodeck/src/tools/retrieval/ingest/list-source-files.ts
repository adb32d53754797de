import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { isSupportedFile } from '../parse/parse-source-file.js';

/** A file to index: where it is, and its name as results cite it. */
export interface SourceFile {
  absolute: string;
  /** Relative to the source folder, with "/" (or the file's name when the source is a file). */
  relative: string;
}

/** What a source holds. */
export interface SourceListing {
  files: SourceFile[];
  /** Files the include/exclude globs keep but no parser reads, by relative name. */
  unsupported: string[];
  /** Whether the source is a folder (include/exclude apply) rather than one file. */
  isFolder: boolean;
}

/** Folders never walked: hidden ones (.git, .holodeck with its index) and node_modules. */
function skippedFolder(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

async function walk(folder: string, prefix: string, into: string[]): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!skippedFolder(entry.name)) await walk(path.join(folder, entry.name), relative, into);
    } else if (entry.isFile() && !entry.name.startsWith('.')) {
      into.push(relative);
    }
  }
}

/**
 * The files of a tool's `source`: the file itself, or every file below the folder (sorted,
 * hidden files and folders left out) that `include` keeps and `exclude` does not drop.
 * Throws ENOENT when the source does not exist.
 */
export async function listSourceFiles(
  source: string,
  include: readonly string[] | undefined,
  exclude: readonly string[] | undefined,
): Promise<SourceListing> {
  const info = await stat(source);
  if (!info.isDirectory()) {
    const relative = path.basename(source);
    return isSupportedFile(source)
      ? { files: [{ absolute: source, relative }], unsupported: [], isFolder: false }
      : { files: [], unsupported: [relative], isFolder: false };
  }
  const names: string[] = [];
  await walk(source, '', names);
  const included = include?.length ? picomatch([...include], { dot: false }) : () => true;
  const excluded = exclude?.length ? picomatch([...exclude]) : () => false;
  const kept = names.filter((name) => included(name) && !excluded(name));
  return {
    files: kept
      .filter(isSupportedFile)
      .map((relative) => ({ absolute: path.join(source, relative), relative })),
    unsupported: kept.filter((name) => !isSupportedFile(name)),
    isFolder: true,
  };
}
