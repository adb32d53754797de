import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RulesError } from '../../../src/errors.js';
import { rulesContentHash } from '../../../src/model/rules-content-hash.js';
import { loadRulesFile, loadRulesFiles, validateRulesFile } from '../../../src/rules/load-rules-file.js';
import { issuesOf, useTempDir } from './temp-files.js';

const fixtures = path.join(import.meta.dirname, '../../fixtures/rules');
const temp = useTempDir();

const rule = (fields: string) =>
  `team: cs-ops\naction_types: [issue_refund, close_ticket]\nrules:\n  - id: TEAM-1\n    version: 1\n    description: A rule.\n    applies_to: [issue_refund]\n    on_violation: hold\n${fields}`;

const GENERAL_CEL_HINT =
  'a condition is a CEL expression over action, evidence and session that is true when the rule is satisfied, e.g. action.context.amount <= 500';

describe('loadRulesFile', () => {
  it('loads a team rules file into a typed RuleSet', async () => {
    const file = path.join(fixtures, 'cs-ops.rules.yaml');
    const ruleSet = await loadRulesFile(file);
    expect(ruleSet).toEqual({
      team: 'cs-ops',
      actionTypes: ['issue_refund', 'close_ticket'],
      file,
      // Loaded from a file: no stored version; the hash of the file's text.
      version: null,
      contentHash: rulesContentHash(readFileSync(file, 'utf8')),
      rules: [
        {
          id: 'TEAM-1',
          version: 2,
          description: 'A refund needs a prior lookup of the same customer.',
          appliesTo: ['issue_refund'],
          onViolation: 'kill',
          condition:
            'evidence.exists(e, e.tool == "mcp__cs__lookup_customer" && e.input.customer_id == action.context.recordId)',
        },
        {
          id: 'TEAM-2',
          version: 1,
          description: 'Refunds over 500 are held for a human.',
          appliesTo: ['issue_refund'],
          onViolation: 'hold',
          condition: 'action.context.amount <= 500',
        },
        {
          id: 'TEAM-3',
          version: 1,
          description: 'Never promise compensation the policy does not allow.',
          appliesTo: ['issue_refund'],
          onViolation: 'hold',
        },
      ],
    });
  });

  it('reports every problem of a file at once, in file order, with file:line:column', async () => {
    const file = path.join(fixtures, 'broken.rules.yaml');
    const error = await loadRulesFile(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RulesError);
    expect(error instanceof RulesError ? error.message.split(`${file}:`).join('<file>:') : '').toBe(
      [
        '9 problems in rules file:',
        '<file>:4:5  rules[0].description: missing required key "description" in rules[0]',
        '<file>:6:5  rules[0].descripton: unknown key "descripton" in rules[0]',
        '    hint: did you mean "description"?',
        '<file>:7:18  rules[0].applies_to[0]: action type "issue_refnd" is not declared in action_types',
        '    hint: did you mean "issue_refund"? or add "issue_refnd" to action_types',
        '<file>:8:19  rules[0].on_violation: expected one of "kill", "hold"; got "kil"',
        '    hint: did you mean "kill"?',
        '<file>:9:44  rules[0].condition: CEL syntax error: Unexpected token: RPAREN',
        `    hint: ${GENERAL_CEL_HINT}`,
        '<file>:10:9  rules[1].id: duplicate rule id "TEAM-1"; rules[0] already uses it',
        '    hint: rule ids must be unique in a rules file: rename one, or bump the version of the rule you changed',
        '<file>:11:14  rules[1].version: must be at least 1, got 0',
        '<file>:13:32  rules[1].applies_to[1]: action type "send_email" is not declared in action_types',
        '    hint: declared: "issue_refund", "close_ticket"; or add "send_email" to action_types',
        '<file>:15:17  rules[1].condition: invalid CEL condition: Unknown variable: acton',
        '    hint: did you mean "action"?',
      ].join('\n'),
    );
  });

  it.each([
    [
      'malformed YAML',
      'team: cs-ops\naction_types: [issue_refund\nrules: []\n',
      [
        '3:1 : invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] (hint: check the indentation, quotes and brackets on this line and the one before it)',
      ],
    ],
    [
      'an empty file',
      '# nothing yet\n',
      [
        '1:1 : rules file is empty (hint: a rules file has team:, action_types: [...] and rules: (each with id, version, description, applies_to, on_violation, and optionally condition, mode, approvals and approvers))',
      ],
    ],
    [
      'a list at the top level',
      '- team: cs-ops\n',
      [
        '1:1 : the top level must be a mapping of keys, got a list (hint: a rules file has team:, action_types: [...] and rules: (each with id, version, description, applies_to, on_violation, and optionally condition, mode, approvals and approvers))',
      ],
    ],
    [
      'an unknown top-level key',
      'team: cs-ops\naction_type: [issue_refund]\nrules: []\n',
      [
        '1:1 action_types: missing required key "action_types" at the top level',
        '2:1 action_type: unknown key "action_type" at the top level (hint: did you mean "action_types"?)',
      ],
    ],
    [
      'a duplicate YAML key',
      'team: cs-ops\nteam: billing\naction_types: [issue_refund]\nrules: []\n',
      [
        '2:1 team: duplicate key "team" at the top level (hint: "team" is already set on line 1; keep only one of them)',
      ],
    ],
    [
      'an empty action_types list',
      'team: cs-ops\naction_types: []\nrules: []\n',
      ['2:1 action_types: must have at least one item'],
    ],
    [
      'a number where a string is expected',
      rule('    condition: 42\n'),
      ['9:16 rules[0].condition: expected a string, got 42 (hint: put it in quotes: "42")'],
    ],
    [
      'a rule id with spaces',
      rule('').replace('id: TEAM-1', 'id: TEAM 1'),
      ['4:9 rules[0].id: a rule id is letters, digits and - _ . : (e.g. TEAM-1)'],
    ],
    [
      'a CEL syntax error in a quoted condition',
      rule("    condition: 'action.context.amount <= '\n"),
      [`9:42 rules[0].condition: CEL syntax error: Unexpected token: EOF (hint: ${GENERAL_CEL_HINT})`],
    ],
    [
      'a CEL syntax error in a block scalar (located at the start of the value)',
      rule('    condition: |\n      action.context.amount <=\n        && true\n'),
      [`9:16 rules[0].condition: CEL syntax error: Unexpected token: AND (hint: ${GENERAL_CEL_HINT})`],
    ],
    [
      'a misspelt field in a condition',
      rule('    condition: evidence.exists(e, e.tooll == "x")\n'),
      ['9:37 rules[0].condition: invalid CEL condition: No such key: tooll (hint: did you mean "tool"?)'],
    ],
    [
      'a condition that is not a boolean',
      rule('    condition: action.context.amount + 1\n'),
      [
        '9:16 rules[0].condition: invalid CEL condition: the condition gives a value of type int, not a boolean (hint: compare the value with something, e.g. action.context.amount <= 500)',
      ],
    ],
  ])('reports %s', async (_name, text, expected) => {
    const file = temp.write('rules.yaml', text);
    expect(await issuesOf(() => loadRulesFile(file))).toEqual(expected);
  });

  it('says when the file does not exist', async () => {
    const file = path.join(temp.dir, 'missing.yaml');
    const error = await loadRulesFile(file).catch((caught: unknown) => caught);
    expect(error instanceof RulesError ? error.message : error).toBe(
      `1 problem in rules file:\n${file}  rules file not found\n    hint: check the path; a rules file has team:, action_types: [...] and rules: (each with id, version, description, applies_to, on_violation, and optionally condition, mode, approvals and approvers)`,
    );
  });

  it('loads several files and reports the problems of all of them in one error', async () => {
    const good = path.join(fixtures, 'cs-ops.rules.yaml');
    expect((await loadRulesFiles([good])).map((ruleSet) => ruleSet.team)).toEqual(['cs-ops']);
    const first = temp.write('first.yaml', 'team: a\naction_types: [x]\nrules: []\nextra: 1\n');
    const second = temp.write('second.yaml', 'team: b\naction_types: [y]\nrulez: []\n');
    const error = await loadRulesFiles([good, first, second]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RulesError);
    const issues = error instanceof RulesError ? error.issues : [];
    expect(issues.map((issue) => `${path.basename(issue.file)}:${issue.line} ${issue.message}`)).toEqual([
      'first.yaml:4 unknown key "extra" at the top level',
      'second.yaml:1 missing required key "rules" at the top level',
      'second.yaml:3 unknown key "rulez" at the top level',
    ]);
    expect(error instanceof RulesError ? error.message : '').toMatch(/^3 problems in rules files:/);
  });
});

describe('validateRulesFile', () => {
  it('returns the rule set and its action types when the file is valid', async () => {
    const file = path.join(fixtures, 'cs-ops.rules.yaml');
    const result = await validateRulesFile(file);
    expect(result.issues).toEqual([]);
    expect(result.actionTypes).toEqual(['issue_refund', 'close_ticket']);
    expect(result.ruleSet?.actionTypes).toEqual(['issue_refund', 'close_ticket']);
  });

  it('returns the declared action types of a broken file with the same issues loadRulesFile throws', async () => {
    const file = path.join(fixtures, 'broken.rules.yaml');
    const result = await validateRulesFile(file);
    expect(result.ruleSet).toBeUndefined();
    expect(result.actionTypes).toEqual(['issue_refund', 'close_ticket']);
    const thrown = await loadRulesFile(file).catch((caught: unknown) => caught);
    expect(thrown instanceof RulesError ? thrown.issues : thrown).toEqual(result.issues);
  });

  it('has no action types when the file cannot be parsed or declares none', async () => {
    const missing = await validateRulesFile(path.join(temp.dir, 'missing.yaml'));
    expect(missing.actionTypes).toBeUndefined();
    expect(missing.issues.map((issue) => issue.message)).toEqual(['rules file not found']);
    const malformed = temp.write('malformed.yaml', 'team: cs-ops\naction_types: [issue_refund\nrules: []\n');
    expect((await validateRulesFile(malformed)).actionTypes).toBeUndefined();
    const none = temp.write('none.yaml', 'team: cs-ops\nrules: []\n');
    expect(await validateRulesFile(none)).toMatchObject({
      issues: [
        { line: 1, path: 'action_types', message: 'missing required key "action_types" at the top level' },
      ],
    });
    expect((await validateRulesFile(none)).actionTypes).toBeUndefined();
  });
});
