import { createRequire } from 'node:module';

/**
 * A word of a command line after quoting and escapes are resolved, or `undefined` when its value
 * cannot be known without running the shell: a `$VAR`, a `$(...)` or `` `...` `` substitution,
 * arithmetic, a glob or a brace expansion.
 */
export type ShellWord = string | undefined;

/** One simple command (`rm -rf x`), as the shell would see its words. */
export interface SimpleCommand {
  words: ShellWord[];
}

/** A command line's simple commands, every nested one included, or why it cannot be parsed. */
export type ParsedCommandLine = { ok: true; commands: SimpleCommand[] } | { ok: false; error: string };

// The subset of mvdan-sh's API used here (https://pkg.go.dev/mvdan.cc/sh/v3/syntax; the package
// ships no types). Nodes are the Go structs' fields, typed by syntax.NodeType.
interface ShNode {
  [field: string]: unknown;
}
interface MvdanSh {
  syntax: {
    NewParser(): { Parse(source: string, name: string): ShNode };
    Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
    NodeType(node: ShNode): string;
  };
}

let sh: MvdanSh | undefined;

/**
 * mvdan-sh is mvdan/sh (the parser of shfmt) compiled to JavaScript: a real POSIX/Bash/mksh
 * parser. Loaded on the first Bash command (~150 ms), so agents without Bash never pay for it.
 */
function shellSyntax(): MvdanSh['syntax'] {
  sh ??= createRequire(import.meta.url)('mvdan-sh') as MvdanSh;
  return sh.syntax;
}

function isNode(value: unknown): value is ShNode {
  return typeof value === 'object' && value !== null;
}

function nodes(value: unknown): ShNode[] {
  return Array.isArray(value) ? value.filter(isNode) : [];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** `$'...'` (ANSI-C quoting): the escapes bash decodes; undefined for one it would not know. */
function decodeAnsiC(value: string): ShellWord {
  const simple: Record<string, string> = {
    a: '\u0007',
    b: '\b',
    e: '\u001b',
    E: '\u001b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\v',
    '\\': '\\',
    "'": "'",
    '"': '"',
    '?': '?',
  };
  let out = '';
  for (let index = 0; index < value.length; index++) {
    const char = value[index];
    if (char !== '\\') {
      out += char;
      continue;
    }
    const next = value[index + 1] ?? '';
    const rest = value.slice(index + 1);
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(rest);
    const octal = /^([0-7]{1,3})/.exec(rest);
    const unicode = /^(?:u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8}))/.exec(rest);
    if (simple[next] !== undefined) {
      out += simple[next];
      index += 1;
    } else if (hex?.[1]) {
      out += String.fromCharCode(Number.parseInt(hex[1], 16));
      index += hex[0].length;
    } else if (octal?.[1]) {
      out += String.fromCharCode(Number.parseInt(octal[1], 8));
      index += octal[0].length;
    } else if (unicode) {
      const code = Number.parseInt(unicode[1] ?? unicode[2] ?? '', 16);
      if (!Number.isFinite(code) || code > 0x10ffff) return undefined;
      out += String.fromCodePoint(code);
      index += unicode[0].length;
    } else {
      return undefined;
    }
  }
  return out;
}

/** An unquoted literal: `\x` is `x`; a glob or brace expansion makes the word unknowable. */
function unquotedLiteral(value: string): ShellWord {
  let literal = '';
  // Only unescaped metacharacters expand (`\*` is a literal star).
  let unescaped = '';
  for (let index = 0; index < value.length; index++) {
    const char = value[index] ?? '';
    if (char === '\\') {
      literal += value[index + 1] ?? '';
      index += 1;
      continue;
    }
    literal += char;
    unescaped += char;
  }
  if (/[*?[]/.test(unescaped) || /\{[^}]*(,|\.\.)[^}]*\}/.test(unescaped)) return undefined;
  return literal;
}

/** Inside double quotes, a backslash escapes only $ ` " \ (and a newline). */
function doubleQuotedLiteral(value: string): string {
  return value.replace(/\\([$`"\\\n])/g, (_match, char: string) => (char === '\n' ? '' : char));
}

/** The value of a word (its parts concatenated), or undefined when it cannot be known statically. */
function wordValue(word: ShNode): ShellWord {
  const { NodeType } = shellSyntax();
  let value = '';
  for (const part of nodes(word.Parts)) {
    const type = NodeType(part);
    let piece: ShellWord;
    if (type === 'Lit') piece = unquotedLiteral(text(part.Value));
    else if (type === 'SglQuoted') piece = part.Dollar ? decodeAnsiC(text(part.Value)) : text(part.Value);
    else if (type === 'DblQuoted') {
      piece = '';
      for (const inner of nodes(part.Parts)) {
        if (NodeType(inner) !== 'Lit') {
          piece = undefined;
          break;
        }
        piece += doubleQuotedLiteral(text(inner.Value));
      }
    } else piece = undefined; // ParamExp, CmdSubst, ArithmExp, ProcSubst, ExtGlob, BraceExp
    if (piece === undefined) return undefined;
    value += piece;
  }
  return value;
}

/**
 * Parses a Bash command line with a real shell parser and returns every simple command in it:
 * those joined by `;`, `&&`, `||`, `|` and `&`, inside subshells, groups, functions, `if`/`while`/
 * `for`/`case` bodies, and inside `$(...)`, backquotes and `<(...)`, each with its words resolved
 * as the shell would (quotes, escapes, `$'...'`) or unknown. Wrappers such as `sh -c` and `xargs`
 * are for the policy to open (bash-command-policy.ts).
 */
export function parseCommandLine(command: string): ParsedCommandLine {
  const syntax = shellSyntax();
  let file: ShNode;
  try {
    file = syntax.NewParser().Parse(command, '');
  } catch (error) {
    const detail =
      typeof error === 'object' && error !== null && 'Error' in error && typeof error.Error === 'function'
        ? String(error.Error())
        : String(error);
    return { ok: false, error: detail };
  }
  const commands: SimpleCommand[] = [];
  syntax.Walk(file, (node) => {
    if (node && syntax.NodeType(node) === 'CallExpr') {
      const words = nodes(node.Args).map(wordValue);
      if (words.length) commands.push({ words });
    }
    return true;
  });
  return { ok: true, commands };
}
