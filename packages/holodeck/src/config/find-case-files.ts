import { readdir } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';

/** The file kinds a `test_cases_file` may be, by extension. */
export const CASE_FILE_EXTENSIONS = ['.yaml', '.yml', '.json', '.jsonl', '.ndjson', '.csv'];

/** What one `test_cases_file` entry names: its files, or why it names none. */
export interface CaseFileMatch {
  /** The entry as agent.yaml resolves it (absolute). */
  pattern: string;
  files: string[];
  /** Set when a glob matched no file, or a file is of a kind that holds no cases. */
  problem?: { message: string; hint: string };
}

/** Files under `directory`, every depth, skipping node_modules and dot folders. */
async function walk(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory())
        return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : walk(full);
      return entry.isFile() ? [full] : [];
    }),
  );
  return nested.flat();
}

/**
 * Expands each `test_cases_file` entry: a path is itself (a missing one is reported when it is
 * read), a glob (`cases/*.csv`, `cases/**\/*.jsonl`) its matching files in name order. A glob
 * matching nothing, and a file whose extension is not one of CASE_FILE_EXTENSIONS, are problems.
 */
export async function findCaseFiles(patterns: readonly string[]): Promise<CaseFileMatch[]> {
  return Promise.all(
    patterns.map(async (pattern): Promise<CaseFileMatch> => {
      const scan = picomatch.scan(pattern);
      const kinds = CASE_FILE_EXTENSIONS.join(', ');
      if (!scan.isGlob) {
        const extension = path.extname(pattern).toLowerCase();
        return CASE_FILE_EXTENSIONS.includes(extension)
          ? { pattern, files: [pattern] }
          : {
              pattern,
              files: [],
              problem: {
                message: `test cases file ${pattern} is not a kind holodeck reads (${extension || 'no extension'})`,
                hint: `name a file ending in one of ${kinds}`,
              },
            };
      }
      const matches = picomatch(pattern, { windows: path.sep === '\\' });
      const files = (await walk(scan.base || '.'))
        .filter((file) => matches(file) && CASE_FILE_EXTENSIONS.includes(path.extname(file).toLowerCase()))
        .sort();
      return files.length
        ? { pattern, files }
        : {
            pattern,
            files,
            problem: {
              message: `test cases glob ${pattern} matches no file`,
              hint: `check the pattern (relative to agent.yaml's folder); it matches files ending in ${kinds}`,
            },
          };
    }),
  );
}
