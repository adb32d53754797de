import { type Document, isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, visit } from 'yaml';
import { describeParent, type FieldIssue, type PathSegment } from './field-issue.js';
import { isRecord } from './raw-value.js';

/** A problem with a known position (YAML syntax errors have no field path). */
export interface PositionedProblem {
  line: number;
  column: number;
  message: string;
  hint?: string;
}

/** The outcome of parsing agent.yaml. */
export type ParsedAgentYaml =
  | {
      ok: true;
      document: Document;
      lineCounter: LineCounter;
      /** The document as plain data (later duplicate keys win; they are reported anyway). */
      data: Record<string, unknown>;
      duplicateKeys: FieldIssue[];
    }
  | { ok: false; problems: PositionedProblem[] };

/** An unquoted `${VAR}` (or `${VAR:-default}`) after a `{` or `[` on a line: YAML reads its braces as a mapping. */
function unquotedVariableInFlow(line: string): string | undefined {
  const flow = line.search(/[{[]/);
  if (flow === -1) return undefined;
  const match = /(?<!["'\w])\$\{[^}"']*\}/.exec(line.slice(flow + 1));
  return match?.[0];
}

/**
 * Parses agent.yaml keeping positions. Duplicate keys are found here (with their field path)
 * rather than by the yaml library, so parsing can go on and report other problems too.
 */
export function parseAgentYaml(text: string): ParsedAgentYaml {
  const lineCounter = new LineCounter();
  // Merge keys (`<<: *base`) are read as YAML 1.1 defines them: the anchored mapping's keys merged in.
  const document = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: true, merge: true });
  if (document.errors.length > 0) {
    const lines = text.split('\n');
    const problems: PositionedProblem[] = [];
    for (const error of document.errors) {
      const line = error.linePos?.[0].line ?? 1;
      const column = error.linePos?.[0].col ?? 1;
      const unquoted = unquotedVariableInFlow(lines[line - 1] ?? '');
      // One problem per line for an unquoted ${VAR}: the parser reports each token it trips on.
      if (unquoted && problems.some((problem) => problem.line === line)) continue;
      problems.push({
        line,
        column,
        message: `invalid YAML: ${(error.message.split(' at line ')[0] ?? error.message).trim()}`,
        hint: unquoted
          ? `${unquoted} inside a flow mapping or list ({ … } or [ … ]) is read as YAML syntax: quote it, e.g. "${unquoted}"`
          : 'check the indentation, quotes and brackets on this line and the one before it',
      });
    }
    // The tokens after an unquoted ${VAR} in a flow only repeat it: its lines are the problem.
    const quoteIt = problems.filter((problem) => problem.hint?.includes('quote it'));
    return { ok: false, problems: quoteIt.length ? quoteIt : problems };
  }
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // The yaml library refuses a document whose aliases expand past the limit (a "billion laughs").
    if (!(error instanceof ReferenceError)) throw error;
    const position = firstAliasPosition(document, lineCounter);
    return {
      ok: false,
      problems: [
        {
          ...position,
          message: `invalid YAML: its aliases (*name) expand to too many values (more than ${MAX_ALIAS_COUNT} per alias)`,
          hint: 'write the values out, or reuse fewer anchors: a file whose aliases multiply is refused, so it cannot exhaust memory',
        },
      ],
    };
  }
  if (data === null || data === undefined) {
    return {
      ok: false,
      problems: [
        {
          line: 1,
          column: 1,
          message: 'agent.yaml is empty',
          hint: 'start with name:, model: (provider and name) and instructions: (inline or file)',
        },
      ],
    };
  }
  if (!isRecord(data) || !isMap(document.contents)) {
    const position = document.contents?.range ? lineCounter.linePos(document.contents.range[0]) : undefined;
    return {
      ok: false,
      problems: [
        {
          line: position?.line ?? 1,
          column: position?.col ?? 1,
          message: `the top level of agent.yaml must be a mapping of keys, got ${Array.isArray(data) ? 'a list' : 'a single value'}`,
          hint: 'write keys such as name:, model: and instructions: at the start of lines, without a leading "- "',
        },
      ],
    };
  }
  return { ok: true, document, lineCounter, data, duplicateKeys: findDuplicateKeys(document, lineCounter) };
}

/** Most values one alias may expand to; past it the document is refused (resource exhaustion). */
const MAX_ALIAS_COUNT = 100;

/** Where the first alias is, so the error points at the expansion that starts the blow-up. */
function firstAliasPosition(document: Document, lineCounter: LineCounter): { line: number; column: number } {
  let found: { line: number; column: number } | undefined;
  visit(document, {
    Alias(_key, node) {
      if (!isAlias(node) || !node.range) return undefined;
      const { line, col } = lineCounter.linePos(node.range[0]);
      found = { line, column: col };
      return visit.BREAK;
    },
  });
  return found ?? { line: 1, column: 1 };
}

function findDuplicateKeys(document: Document, lineCounter: LineCounter): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const walk = (node: unknown, path: PathSegment[]): void => {
    if (isSeq(node)) {
      node.items.forEach((item, index) => {
        walk(item, [...path, index]);
      });
      return;
    }
    if (!isMap(node)) return;
    const firstLines = new Map<string, number>();
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
      if (key === undefined) continue;
      const { line, col } =
        isScalar(pair.key) && pair.key.range ? lineCounter.linePos(pair.key.range[0]) : { line: 1, col: 1 };
      const firstLine = firstLines.get(key);
      if (firstLine === undefined) {
        firstLines.set(key, line);
        walk(pair.value, [...path, key]);
      } else {
        issues.push({
          path: [...path, key],
          position: { line, column: col },
          message: `duplicate key "${key}" ${describeParent(path)}`,
          hint: `"${key}" is already set on line ${firstLine}; keep only one of them`,
        });
      }
    }
  };
  walk(document.contents, []);
  return issues;
}
