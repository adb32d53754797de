import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { codeSizeAllowlist } from './code-size-allowlist.js';

// A ratchet on the size of the source (issue 26 §4): no function over 80 lines and no file over 300
// lines in packages/*/src, except the entries of code-size-allowlist.ts, which may only shrink.
// Lines are counted as the workspace's longfns script counts them: a function from the line its
// declaration starts on to the line it ends on; a file as its text split on newlines.
const MAX_FUNCTION_LINES = 80;
const MAX_FILE_LINES = 300;
const FILE = '(file)';

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));

/** One measured function or file: `name` is FILE for the file itself. */
interface SizedCode {
  path: string;
  name: string;
  /** 1-based line the function starts on (1 for a file). */
  line: number;
  lines: number;
}

function sourceFiles(): string[] {
  return readdirSync(path.join(ROOT, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const src = path.join(ROOT, 'packages', entry.name, 'src');
      try {
        return readdirSync(src, { recursive: true, encoding: 'utf8' })
          .filter((file) => file.endsWith('.ts'))
          .map((file) => path.relative(ROOT, path.join(src, file)).split(path.sep).join('/'));
      } catch {
        return [];
      }
    })
    .sort();
}

/**
 * The name a function goes by: its own, its variable's or property's; a callback is named by the
 * call it is passed to ("(anon:withIngestLock)"), anything else "(anon)".
 */
function functionName(node: ts.FunctionLikeDeclaration, parent: ts.Node, source: ts.SourceFile): string {
  if (node.name !== undefined) return node.name.getText(source);
  if (
    ts.isVariableDeclaration(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent)
  ) {
    return parent.name.getText(source);
  }
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression;
    if (ts.isIdentifier(callee)) return `(anon:${callee.text})`;
    if (ts.isPropertyAccessExpression(callee)) return `(anon:${callee.name.text})`;
  }
  return '(anon)';
}

function isMeasuredFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/**
 * Every function of a file, named by the chain of functions it sits in ("outer/(anon)"), so that
 * two callbacks in one file keep apart; a name that still repeats gets "#2", "#3", ...
 */
function measureSource(file: string, text: string): SizedCode[] {
  const sized: SizedCode[] = [{ path: file, name: FILE, line: 1, lines: text.split('\n').length }];
  // A file no longer than the limit has no function over it: no need to parse it (the test stays fast).
  if ((sized[0] as SizedCode).lines <= MAX_FUNCTION_LINES) return sized;
  const source = ts.createSourceFile(
    file,
    text,
    { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
    false,
  );
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
  const seen = new Map<string, number>();
  const visit = (node: ts.Node, parent: ts.Node, outer: string) => {
    let inside = outer;
    if (isMeasuredFunction(node)) {
      const name = functionName(node, parent, source);
      const chained = outer === '' ? name : `${outer}/${name}`;
      const count = (seen.get(chained) ?? 0) + 1;
      seen.set(chained, count);
      inside = count === 1 ? chained : `${chained}#${count}`;
      const start = lineOf(node.getStart(source));
      sized.push({ path: file, name: inside, line: start + 1, lines: lineOf(node.end) - start + 1 });
    }
    ts.forEachChild(node, (child) => visit(child, node, inside));
  };
  visit(source, source, '');
  return sized;
}

const limitOf = (code: { name: string }) => (code.name === FILE ? MAX_FILE_LINES : MAX_FUNCTION_LINES);
const describeCode = (code: SizedCode) =>
  code.name === FILE ? `${code.path} (file)` : `${code.path}:${code.line} ${code.name}`;

/** One allow-list entry: "<path> <name> <lines>", the name "(file)" for a whole file. */
interface AllowedSize {
  path: string;
  name: string;
  lines: number;
}

function parseAllowlist(entries: readonly string[]): AllowedSize[] {
  return entries.map((entry) => {
    const match = /^(\S+) (\S+) (\d+)$/.exec(entry);
    if (match === null) throw new Error(`code-size-allowlist.ts: "${entry}" is not "<path> <name> <lines>"`);
    return { path: match[1] as string, name: match[2] as string, lines: Number(match[3]) };
  });
}

/** The problems with the measured code against the allow-list, one message each; [] when clean. */
function codeSizeProblems(measured: readonly SizedCode[], allowlist: readonly AllowedSize[]): string[] {
  const allowed = new Map(allowlist.map((entry) => [`${entry.path} ${entry.name}`, entry]));
  const found = new Map(measured.map((code) => [`${code.path} ${code.name}`, code]));
  const problems: string[] = [];
  for (const code of measured) {
    const limit = limitOf(code);
    const entry = allowed.get(`${code.path} ${code.name}`);
    if (entry === undefined) {
      if (code.lines > limit) {
        problems.push(`${describeCode(code)} is ${code.lines} lines, over the limit of ${limit}: split it`);
      }
    } else if (code.lines > entry.lines) {
      problems.push(
        `${describeCode(code)} is ${code.lines} lines, grew past its allowed ${entry.lines}: split it, do not raise the entry`,
      );
    } else if (code.lines <= limit) {
      problems.push(
        `${describeCode(code)} is ${code.lines} lines, within the limit of ${limit}: remove it from the list`,
      );
    }
  }
  for (const entry of allowlist) {
    if (!found.has(`${entry.path} ${entry.name}`)) {
      problems.push(
        `${entry.path} ${entry.name} is gone (renamed, moved or deleted): remove it from the list`,
      );
    }
  }
  return problems;
}

describe('code size', () => {
  it('no function over 80 lines and no file over 300 lines outside the allow-list, none listed grew', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(500);
    const measured = files.flatMap((file) =>
      measureSource(file, readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(codeSizeProblems(measured, parseAllowlist(codeSizeAllowlist))).toEqual([]);
  });

  it('the allow-list is sorted by path, one entry per function or file', () => {
    const keys = parseAllowlist(codeSizeAllowlist).map((entry) => entry.path);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(codeSizeAllowlist).size).toBe(codeSizeAllowlist.length);
  });

  it('names a function by the chain it sits in, with its line and length', () => {
    const body = (n: number) => Array.from({ length: n }, () => '  work();').join('\n');
    const text = `export function outer() {\n${body(80)}\n  list.map(() => {\n${body(79)}\n  });\n}\n`;
    const measured = measureSource('packages/x/src/a.ts', text);
    expect(measured.map(({ name, line, lines }) => ({ name, line, lines }))).toEqual([
      { name: FILE, line: 1, lines: 164 },
      { name: 'outer', line: 1, lines: 163 },
      { name: 'outer/(anon:map)', line: 82, lines: 81 },
    ]);
    expect(codeSizeProblems(measured, [])).toEqual([
      'packages/x/src/a.ts:1 outer is 163 lines, over the limit of 80: split it',
      'packages/x/src/a.ts:82 outer/(anon:map) is 81 lines, over the limit of 80: split it',
    ]);
  });

  it('fails a listed entry that grew, one now within bounds, one gone and a file over 300 lines', () => {
    const measured: SizedCode[] = [
      { path: 'packages/x/src/a.ts', name: FILE, line: 1, lines: 301 },
      { path: 'packages/x/src/a.ts', name: 'grows', line: 10, lines: 91 },
      { path: 'packages/x/src/a.ts', name: 'shrank', line: 120, lines: 80 },
      { path: 'packages/x/src/a.ts', name: 'kept', line: 220, lines: 85 },
    ];
    const allowlist = parseAllowlist([
      'packages/x/src/a.ts grows 90',
      'packages/x/src/a.ts kept 85',
      'packages/x/src/a.ts shrank 95',
      'packages/x/src/b.ts removed 120',
    ]);
    expect(codeSizeProblems(measured, allowlist)).toEqual([
      'packages/x/src/a.ts (file) is 301 lines, over the limit of 300: split it',
      'packages/x/src/a.ts:10 grows is 91 lines, grew past its allowed 90: split it, do not raise the entry',
      'packages/x/src/a.ts:120 shrank is 80 lines, within the limit of 80: remove it from the list',
      'packages/x/src/b.ts removed is gone (renamed, moved or deleted): remove it from the list',
    ]);
  });

  it('rejects an allow-list entry that is not "<path> <name> <lines>"', () => {
    expect(() => parseAllowlist(['packages/x/src/a.ts outer'])).toThrow(
      'code-size-allowlist.ts: "packages/x/src/a.ts outer" is not "<path> <name> <lines>"',
    );
  });
});
