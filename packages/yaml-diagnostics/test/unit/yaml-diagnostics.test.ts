import { describe, expect, it } from 'vitest';
import {
  formatFieldPath,
  formatFileIssue,
  locateOffsetInScalar,
  locateYamlPath,
  mapZodIssues,
  parseYamlWithPositions,
} from 'yaml-diagnostics';
import { z } from 'zod';

const Schema = z.strictObject({
  name: z.string(),
  tools: z.array(z.strictObject({ type: z.enum(['mcp', 'function']), url: z.url().optional() })),
});

function check(text: string, options: { terse?: boolean } = {}): string[] {
  const parsed = parseYamlWithPositions(text);
  if (!parsed.ok) throw new Error(`did not parse: ${parsed.reason}`);
  const result = Schema.safeParse(parsed.data);
  const issues = result.success
    ? []
    : mapZodIssues(result.error.issues, { schema: Schema, data: parsed.data, ...options });
  return [...parsed.duplicateKeys, ...issues].map((issue) => {
    const { line, column } =
      issue.position ?? locateYamlPath(parsed.document, parsed.lineCounter, issue.path, issue.anchor);
    return formatFileIssue({
      file: 'a.yaml',
      line,
      column,
      path: formatFieldPath(issue.path),
      message: issue.message,
      ...(issue.hint === undefined ? {} : { hint: issue.hint }),
    });
  });
}

describe('yaml-diagnostics', () => {
  it('locates an unknown key with a did-you-mean hint and a bad enum value', () => {
    expect(check('name: x\ntools:\n  - type: mpc\n    urll: https://a.example\n')).toEqual([
      'a.yaml:3:11  tools[0].type: expected one of "mcp", "function"; got the string "mpc"\n    hint: did you mean "mcp"?',
      'a.yaml:4:5  tools[0].urll: unknown key "urll" in tools[0]\n    hint: did you mean "url"?',
    ]);
  });

  it('reports a duplicate key at its second occurrence, naming the first line', () => {
    expect(check('name: x\nname: y\ntools: []\n')).toEqual([
      'a.yaml:2:1  name: duplicate key "name" at the top level\n    hint: "name" is already set on line 1; keep only one of them',
    ]);
  });

  it('terse style: values as written and format issues in the schema words', () => {
    expect(check('name: 3\ntools:\n  - type: mcp\n    url: nope\n', { terse: true })).toEqual([
      'a.yaml:1:7  name: expected a string, got 3\n    hint: put it in quotes: "3"',
      'a.yaml:4:10  tools[0].url: Invalid URL',
    ]);
  });

  it('refuses YAML syntax errors and alias bombs with their positions', () => {
    const syntax = parseYamlWithPositions('name: [x\n');
    expect(syntax.ok === false && syntax.reason).toBe('syntax');
    const bomb =
      'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n';
    expect(parseYamlWithPositions(bomb)).toMatchObject({
      ok: false,
      reason: 'aliases',
      position: { line: 2, column: 8 },
      maxAliasCount: 100,
    });
  });

  it('locates a character inside a plain or quoted scalar, not inside a block scalar', () => {
    const text = 'a: hello world\nb: "quoted text"\nc: |\n  block\n';
    const parsed = parseYamlWithPositions(text);
    if (!parsed.ok) throw new Error('did not parse');
    const at = (key: string, offset: number) =>
      locateOffsetInScalar(parsed.document, parsed.lineCounter, text, [key], offset);
    expect(at('a', 6)).toEqual({ line: 1, column: 10 });
    expect(at('b', 7)).toEqual({ line: 2, column: 12 });
    expect(at('c', 1)).toBeUndefined();
  });
});
