import { type Document, isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, visit } from 'yaml';
import { describeParent, type FieldIssue, type PathSegment } from './field-issue.js';
import type { YamlPosition } from './locate-yaml-path.js';

/** A problem with a known position (YAML syntax errors have no field path). */
export interface PositionedProblem {
  line: number;
  column: number;
  message: string;
  hint?: string;
}

/** The outcome of parsing YAML text with positions. */
export type ParsedYaml =
  | {
      ok: true;
      document: Document;
      lineCounter: LineCounter;
      /** The document as plain data (later duplicate keys win; they are reported anyway). */
      data: unknown;
      /** Duplicate keys, found here so that checking can go on and report other problems too. */
      duplicateKeys: FieldIssue[];
    }
  /** The text is not YAML: one problem per syntax error, each with its line and column. */
  | { ok: false; reason: 'syntax'; problems: PositionedProblem[] }
  /** The aliases expand past `maxAliasCount` (a "billion laughs"); `position` is the first alias. */
  | { ok: false; reason: 'aliases'; position: YamlPosition; maxAliasCount: number };

/** Most values one alias may expand to; past it the document is refused (resource exhaustion). */
export const MAX_ALIAS_COUNT = 100;

/**
 * Parses YAML text keeping positions; `merge` reads `<<: *base` merge keys as YAML 1.1 does.
 * Duplicate keys are found here (with their field path)
 * rather than by the yaml library, so parsing can go on and report other problems too.
 */
export function parseYamlWithPositions(text: string, options: { merge?: boolean } = {}): ParsedYaml {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, {
    lineCounter,
    uniqueKeys: false,
    prettyErrors: true,
    ...(options.merge ? { merge: true } : {}),
  });
  if (document.errors.length > 0) {
    return {
      ok: false,
      reason: 'syntax',
      problems: document.errors.map((error) => ({
        line: error.linePos?.[0].line ?? 1,
        column: error.linePos?.[0].col ?? 1,
        message: `invalid YAML: ${(error.message.split(' at line ')[0] ?? error.message).trim()}`,
        hint: 'check the indentation, quotes and brackets on this line and the one before it',
      })),
    };
  }
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // The yaml library refuses a document whose aliases expand past the limit (a "billion laughs").
    if (!(error instanceof ReferenceError)) throw error;
    return {
      ok: false,
      reason: 'aliases',
      position: firstAliasPosition(document, lineCounter),
      maxAliasCount: MAX_ALIAS_COUNT,
    };
  }
  return { ok: true, document, lineCounter, data, duplicateKeys: findDuplicateKeys(document, lineCounter) };
}

/** Where the first alias is, so the error points at the expansion that starts the blow-up. */
function firstAliasPosition(document: Document, lineCounter: LineCounter): YamlPosition {
  let found: YamlPosition | undefined;
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
      if (!isScalar(pair.key)) continue;
      const key = String(pair.key.value);
      const { line, col } = pair.key.range ? lineCounter.linePos(pair.key.range[0]) : { line: 1, col: 1 };
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
