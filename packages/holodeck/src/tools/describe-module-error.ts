import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Why a user module (a function tool, a code grader) could not be loaded, and where. */
export interface ModuleLoadProblem {
  /** The file the problem is in: the module itself, or a file it imports. */
  file: string;
  line?: number;
  column?: number;
  /** `SyntaxError: Unexpected number`, `Error: boom at load`, ... */
  message: string;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const firstLine = error.message.split('\n').find((line) => line.trim() !== '') ?? error.message;
  return `${error.name}: ${firstLine}`;
}

/**
 * Node 20 reports an ES module's syntax error without its position; `node --check` prints it
 * (`<file>:<line>`, the source line, a caret under the column). Only run on the failure path.
 */
function locateSyntaxError(file: string): { line: number; column?: number } | undefined {
  const check = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8', timeout: 10_000 });
  const lines = (check.stderr ?? '').split('\n');
  const header = /:(\d+)$/.exec(lines[0] ?? '');
  if (!header?.[1]) return undefined;
  const caret = (lines[2] ?? '').indexOf('^');
  return { line: Number(header[1]), ...(caret >= 0 ? { column: caret + 1 } : {}) };
}

/** The first stack frame in a user's file: `at file:///path/x.mjs:3:7` or `at /path/x.js:3:7`. */
function locateThrow(stack: string): { file: string; line: number; column: number } | undefined {
  for (const match of stack.matchAll(/\(?((?:file:\/\/)?\/[^\s():]+):(\d+):(\d+)\)?$/gm)) {
    const [, where, line, column] = match;
    if (!where || !line || !column || where.includes('/node_modules/')) continue;
    const file = where.startsWith('file://') ? fileURLToPath(where) : where;
    return { file, line: Number(line), column: Number(column) };
  }
  return undefined;
}

/**
 * Where and why importing `file` failed: a syntax error (JavaScript, or TypeScript as tsx reports
 * it) with its line and column, an error the module threw while loading at the line that threw,
 * or a missing import as Node words it.
 */
export function describeModuleLoadError(error: unknown, file: string): ModuleLoadProblem {
  const message = describe(error);
  if (error instanceof Error) {
    // tsx (esbuild): "Transform failed with 1 error:\n/path/x.ts:3:10: ERROR: Expected ..."
    const transform = /^(\/[^\n:]+):(\d+):(\d+): ERROR: (.+)$/m.exec(error.message);
    if (transform?.[1] && transform[2] && transform[3] && transform[4]) {
      return {
        file: transform[1],
        line: Number(transform[2]),
        column: Number(transform[3]) + 1,
        message: `SyntaxError: ${transform[4]}`,
      };
    }
    if (error.name === 'SyntaxError' && /\.m?js$/.test(file)) {
      const position = locateSyntaxError(file);
      if (position) return { file, ...position, message };
    }
    const thrown = error.stack ? locateThrow(error.stack) : undefined;
    if (thrown && !('code' in error && String(error.code).startsWith('ERR_'))) return { ...thrown, message };
  }
  return { file, message };
}
