import { type Document, isMap, type LineCounter } from 'yaml';
import { type FieldIssue, isRecord, type PositionedProblem, parseYamlWithPositions } from 'yaml-diagnostics';

export type { PositionedProblem };

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
 * Syntax problems with a quote-it hint on lines whose unquoted `${VAR}` in a flow is the cause:
 * one problem per such line (the parser reports each token it trips on), and only those lines
 * when there are any (the tokens after them only repeat it).
 */
function hintUnquotedVariables(text: string, found: readonly PositionedProblem[]): PositionedProblem[] {
  const lines = text.split('\n');
  const problems: PositionedProblem[] = [];
  for (const problem of found) {
    const unquoted = unquotedVariableInFlow(lines[problem.line - 1] ?? '');
    if (unquoted && problems.some((seen) => seen.line === problem.line)) continue;
    problems.push(
      unquoted
        ? {
            ...problem,
            hint: `${unquoted} inside a flow mapping or list ({ … } or [ … ]) is read as YAML syntax: quote it, e.g. "${unquoted}"`,
          }
        : problem,
    );
  }
  const quoteIt = problems.filter((problem) => problem.hint?.includes('quote it'));
  return quoteIt.length ? quoteIt : problems;
}

/**
 * Parses agent.yaml keeping positions. Duplicate keys are found here (with their field path)
 * rather than by the yaml library, so parsing can go on and report other problems too.
 */
export function parseAgentYaml(text: string): ParsedAgentYaml {
  // Merge keys (`<<: *base`) are read as YAML 1.1 defines them: the anchored mapping's keys merged in.
  const parsed = parseYamlWithPositions(text, { merge: true });
  if (!parsed.ok && parsed.reason === 'syntax')
    return { ok: false, problems: hintUnquotedVariables(text, parsed.problems) };
  if (!parsed.ok) {
    return {
      ok: false,
      problems: [
        {
          ...parsed.position,
          message: `invalid YAML: its aliases (*name) expand to too many values (more than ${parsed.maxAliasCount} per alias)`,
          hint: 'write the values out, or reuse fewer anchors: a file whose aliases multiply is refused, so it cannot exhaust memory',
        },
      ],
    };
  }
  const { document, lineCounter, data, duplicateKeys } = parsed;
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
  return { ok: true, document, lineCounter, data, duplicateKeys };
}
