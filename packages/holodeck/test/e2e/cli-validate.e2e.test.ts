import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { HOLODECK_BIN, runHolodeckCli } from './support/run-holodeck-cli.js';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent-home' };
const fixture = (name: string) =>
  fileURLToPath(new URL(`../fixtures/config/${name}/agent.yaml`, import.meta.url));
const example = fileURLToPath(new URL('../../../../examples/customer-support/agent.yaml', import.meta.url));

describe('holodeck validate', () => {
  it('reports every mistake of a broken file with its line, and exits 2', async () => {
    const outcome = await runHolodeckCli(['validate', fixture('many-mistakes')], env);
    expect(outcome.code).toBe(2);
    const errors = outcome.stderr.split('\n').filter((line) => line.startsWith('error '));
    expect(errors).toHaveLength(19);
    const lines = errors.map((line) => Number(/agent\.yaml:(\d+):/.exec(line)?.[1]));
    expect(new Set(lines).size).toBe(19);
    expect(outcome.stderr).toContain(
      'claude.permision_mode: unknown key "permision_mode" in claude\n    hint: did you mean "permission_mode"?',
    );
    expect(outcome.stderr).toMatch(/✗ .*many-mistakes\/agent\.yaml: 19 problems\n$/);
  });

  it('accepts the example agent and exits 0', async () => {
    const outcome = await runHolodeckCli(['validate', example], { ...env, ANTHROPIC_API_KEY: 'sk-x' });
    expect(outcome).toMatchObject({ code: 0, stderr: '' });
    expect(outcome.stdout).toMatch(/✓ .*examples\/customer-support\/agent\.yaml is valid\n$/);
  });

  it('warns, without failing, when the credentials a run needs are not set', async () => {
    const outcome = await runHolodeckCli(['validate', example], env);
    expect(outcome.code).toBe(0);
    expect(outcome.stderr.split('\n')).toEqual([
      'warning auth_provider "api_key" needs ANTHROPIC_API_KEY, which is not set here: `holodeck chat` will stop until it is.',
      expect.stringMatching(
        /^warning \S*examples\/customer-support\/agent\.yaml {2}judge metrics: the judge model \(anthropic\) needs credentials: set ANTHROPIC_API_KEY/,
      ),
      '',
    ]);
    expect(outcome.stdout).toMatch(/is valid \(2 warnings\)\n$/);
  });

  it('--json reports issues as data', async () => {
    const outcome = await runHolodeckCli(['validate', '--json', fixture('many-mistakes')], env);
    const report = JSON.parse(outcome.stdout);
    expect(report.valid).toBe(false);
    expect(report.issues[0]).toMatchObject({ line: 1, path: 'name' });
  });

  it('says when the file does not exist', async () => {
    const outcome = await runHolodeckCli(['validate', '/nonexistent/agent.yaml'], env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(/\/nonexistent\/agent\.yaml/);
    expect(outcome.stderr).toMatch(/not found|no such file|does not exist/i);
  });
});

describe('holodeck validate on a governed agent', () => {
  const folders: string[] = [];
  afterAll(() => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  /** A governed agent folder: agent.yaml (write spec action_type on line 17) and rules.yaml. */
  function governedAgent(actionType: string, condition: string): string {
    const folder = mkdtempSync(path.join(tmpdir(), 'holodeck-validate-'));
    folders.push(folder);
    const agent = [
      'name: governed-agent',
      'model:',
      '  provider: anthropic',
      '  name: claude-sonnet-4-6',
      'instructions:',
      '  inline: Help with orders.',
      'governance:',
      '  tenant_id: acme',
      '  team_id: cs-ops',
      '  agent_id: support-bot',
      '  rules_file: rules.yaml',
      '  tool_kinds:',
      '    lookup_order: read',
      '    refund_order: write',
      '  write_specs:',
      '    refund_order:',
      `      action_type: ${actionType}`,
      '      record_id: order_id',
    ];
    const rules = [
      'team: cs-ops',
      'action_types: [refund_order, cancel_order]',
      'rules:',
      '  - id: TEAM-2',
      '    version: 1',
      '    description: Refunds over 500 are held for a human.',
      '    applies_to: [refund_order]',
      '    on_violation: hold',
      `    condition: ${condition}`,
    ];
    writeFileSync(path.join(folder, 'agent.yaml'), `${agent.join('\n')}\n`);
    writeFileSync(path.join(folder, 'rules.yaml'), `${rules.join('\n')}\n`);
    return folder;
  }

  it('reports a CEL syntax error in the rules file and an undeclared action type with their lines, and exits 2', async () => {
    const folder = governedAgent('wire_money', 'action.context.amount <=');
    const agentFile = path.join(folder, 'agent.yaml');
    const outcome = await runHolodeckCli(['validate', agentFile], { ...env, ANTHROPIC_API_KEY: 'sk-x' });
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toBe(
      [
        `error ${agentFile}:17:20  governance.write_specs.refund_order.action_type: action type "wire_money" is not declared in rules.yaml; Novarch would kill the session at the first refund_order call`,
        '    hint: rules.yaml declares "refund_order", "cancel_order"; use one of them, or add "wire_money" to its action_types',
        `error ${path.join(folder, 'rules.yaml')}:9:40  rules[0].condition: CEL syntax error: Unexpected token: EOF`,
        '    hint: a condition is a CEL expression over action, evidence and session that is true when the rule is satisfied, e.g. action.context.amount <= 500',
        `✗ ${agentFile}: 2 problems`,
        '',
      ].join('\n'),
    );
  });

  it('accepts a governed agent whose rules file declares its action types, and exits 0', async () => {
    const folder = governedAgent('refund_order', 'action.context.amount <= 500');
    const agentFile = path.join(folder, 'agent.yaml');
    const outcome = await runHolodeckCli(['validate', agentFile], { ...env, ANTHROPIC_API_KEY: 'sk-x' });
    expect(outcome).toEqual({ code: 0, stdout: `✓ ${agentFile} is valid\n`, stderr: '' });
  });
});

describe('holodeck validate runs what chat and test check before they start a model', () => {
  const folders: string[] = [];
  afterAll(() => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  /** Writes `files` into a fresh folder and validates its agent.yaml (credentials set). */
  async function validateFolder(files: Record<string, string>, flags: string[] = []) {
    const folder = mkdtempSync(path.join(tmpdir(), 'holodeck-validate-'));
    folders.push(folder);
    for (const [name, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
      writeFileSync(path.join(folder, name), content);
    }
    const outcome = await runHolodeckCli(['validate', ...flags, path.join(folder, 'agent.yaml')], {
      ...env,
      ANTHROPIC_API_KEY: 'sk-x',
    });
    return { folder, outcome };
  }

  const header = [
    'name: checked-agent',
    'model: { provider: anthropic, name: claude-sonnet-4-6 }',
    'instructions: { inline: Help with orders. }',
  ];

  it('imports tool modules, loads test_cases_file, checks tool names and what each metric needs, all at once with file:line:col', async () => {
    const agent = [
      ...header,
      'tools:',
      '  - type: function',
      '    name: lookup_order',
      '    description: Look up an order',
      '    file: orders.mjs',
      '    function: lookupOrdr',
      '    parameters: { type: object, properties: {} }',
      '  - type: function',
      '    name: broken',
      '    description: Broken module',
      '    file: broken.mjs',
      '    parameters: { type: object, properties: {} }',
      'evaluations:',
      '  metrics:',
      '    - { type: bleu, threshold: 0.5 }',
      'test_cases_file: cases.yaml',
      'test_cases:',
      '  - name: inline-case',
      '    input: Where is A-1001?',
      '    ground_truth: It shipped.',
      '    metrics:',
      '      - { type: code, file: graders.mjs, function: grade }',
      '      - { type: json-schema, value: schemas/missing.json }',
      '      - { type: faithfulness }',
    ];
    const cases = [
      '- name: from-file',
      '  input: Hello',
      '  expected_tools: [lookup_ordr]',
      '- name: conversation',
      '  turns:',
      '    - input: Hi',
      '      metrics: [{ type: rouge }]',
    ];
    const { folder, outcome } = await validateFolder({
      'agent.yaml': `${agent.join('\n')}\n`,
      'orders.mjs': 'export function lookupOrder() {}\n',
      'broken.mjs': 'export function broken() {\n  return 1 +;\n}\n',
      'cases.yaml': `${cases.join('\n')}\n`,
    });
    const at = (file: string) => path.join(folder, file);
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toBe(
      [
        `error ${at('agent.yaml')}:9:15  tools[0].function: module ${at('orders.mjs')} has no exported function "lookupOrdr"`,
        '    hint: exported functions: lookupOrder',
        `error ${at('agent.yaml')}:25:29  test_cases[0].metrics[0].file: code metric file not found: ${at('graders.mjs')}`,
        `error ${at('agent.yaml')}:26:37  test_cases[0].metrics[1].value: json-schema file not found: ${at('schemas/missing.json')}`,
        `error ${at('agent.yaml')}:27:9  test_cases[0].metrics[2]: metric faithfulness of test case "inline-case" needs context, which the case does not give`,
        '    hint: add context (the retrieved passages) to the test case',
        `error ${at('broken.mjs')}:2:13  tools[1].file: cannot load function tool module ${at('broken.mjs')}: SyntaxError: Unexpected token ';'`,
        '    hint: check the module runs on its own, e.g. `node <file>`',
        `error ${at('cases.yaml')}:1:3  [0]: metric bleu (from evaluations.metrics[0]) of test case "from-file" needs a reference text (ground_truth or value), which the case does not give`,
        '    hint: add ground_truth to the test case, or value to the metric',
        `error ${at('cases.yaml')}:3:20  [0].expected_tools[0]: test case "from-file" expects unknown tool "lookup_ordr"`,
        '    hint: the agent has: lookup_order, mcp__holodeck_tools__lookup_order, broken, mcp__holodeck_tools__broken',
        `error ${at('cases.yaml')}:4:3  [1]: metric bleu (from evaluations.metrics[0]) of test case "conversation" needs a reference text (ground_truth or value), which the case does not give`,
        '    hint: add ground_truth to the test case, or value to the metric',
        `error ${at('cases.yaml')}:7:17  [1].turns[0].metrics[0]: metric rouge of test case "conversation" needs a reference text (ground_truth or value), which the case does not give`,
        '    hint: add ground_truth to the test case, or value to the metric',
        `✗ ${at('agent.yaml')}: 9 problems`,
        '',
      ].join('\n'),
    );
  });

  it('reports an invalid regex or flags, a missing or broken test_cases_file, with their lines', async () => {
    const regex = await validateFolder({
      'agent.yaml': `${[...header, 'test_cases:', '  - name: r', '    input: hi', '    metrics:', '      - { type: regex, value: "(shipped" }', '      - { type: not-regex, value: x, flags: gg }'].join('\n')}\n`,
    });
    expect(regex.outcome.stderr).toBe(
      [
        `error ${path.join(regex.folder, 'agent.yaml')}:8:31  test_cases[0].metrics[0].value: is not a valid regular expression: /(shipped/: Unterminated group`,
        '    hint: check the brackets and escapes (in YAML, quote the pattern)',
        `error ${path.join(regex.folder, 'agent.yaml')}:9:45  test_cases[0].metrics[1].flags: "gg" are not valid regex flags`,
        '    hint: use each of d g i m s u v y at most once, and not both u and v',
        `✗ ${path.join(regex.folder, 'agent.yaml')}: 2 problems`,
        '',
      ].join('\n'),
    );
    const missing = await validateFolder({
      'agent.yaml': `${[...header, 'test_cases_file: nowhere.yaml'].join('\n')}\n`,
    });
    expect(missing.outcome.stderr).toBe(
      [
        `error ${path.join(missing.folder, 'agent.yaml')}:4:18  test_cases_file: test cases file not found: ${path.join(missing.folder, 'nowhere.yaml')}`,
        '    hint: check test_cases_file in agent.yaml (relative paths start from its folder)',
        `✗ ${path.join(missing.folder, 'agent.yaml')}: 1 problem`,
        '',
      ].join('\n'),
    );
    const broken = await validateFolder({
      'agent.yaml': `${[...header, 'test_cases_file: cases.yaml'].join('\n')}\n`,
      'cases.yaml': '- name: a\n  input: [unclosed\n',
    });
    expect(broken.outcome.stderr).toMatch(
      new RegExp(
        `^error ${path.join(broken.folder, 'cases.yaml').replace(/[.]/g, '\\.')}:3:1  invalid YAML: `,
      ),
    );
  });

  it('refuses an MCP server named holodeck_tools (reserved), and says so at its line', async () => {
    const { folder, outcome } = await validateFolder({
      'agent.yaml': `${[...header, 'tools:', '  - { type: mcp, name: holodeck_tools, description: mine, command: npx }'].join('\n')}\n`,
    });
    expect(outcome.stderr).toBe(
      [
        `error ${path.join(folder, 'agent.yaml')}:5:24  tools[0].name: tool name "holodeck_tools" is reserved: HoloDeck's function tools run in an MCP server of that name`,
        '    hint: rename this tool (its tools are then mcp__<new name>__<tool>)',
        `✗ ${path.join(folder, 'agent.yaml')}: 1 problem`,
        '',
      ].join('\n'),
    );
  });

  it('reports a YAML alias bomb as a configuration error with its line, and --json still prints JSON', async () => {
    const bomb = [
      ...header,
      'x: &a ["l","l","l","l","l","l","l","l","l","l"]',
      'y: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'z: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'w: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]',
    ];
    const { folder, outcome } = await validateFolder({ 'agent.yaml': `${bomb.join('\n')}\n` }, ['--json']);
    expect(outcome.code).toBe(2);
    expect(JSON.parse(outcome.stdout)).toEqual({
      valid: false,
      issues: [
        {
          file: path.join(folder, 'agent.yaml'),
          line: 5,
          column: 8,
          path: '',
          message: 'invalid YAML: its aliases (*name) expand to too many values (more than 100 per alias)',
          hint: 'write the values out, or reuse fewer anchors: a file whose aliases multiply is refused, so it cannot exhaust memory',
        },
      ],
      warnings: [],
    });
  });
});

describe('holodeck schema', () => {
  it('prints a JSON Schema that accepts the example agent', async () => {
    const outcome = await runHolodeckCli(['schema'], env);
    expect(outcome.code).toBe(0);
    const schema = JSON.parse(outcome.stdout);
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(parse(readFileSync(example, 'utf8')))).toBe(true);
    expect(
      validate({
        name: 'x',
        model: { provider: 'anthropic', name: 'm' },
        instructions: { inline: 'i' },
        bogus: 1,
      }),
    ).toBe(false);
  });
});

describe('--help and usage errors', () => {
  it('documents commands and exit codes', async () => {
    const outcome = await runHolodeckCli(['--help'], env);
    expect(outcome.code).toBe(0);
    for (const command of ['validate', 'schema', 'chat']) expect(outcome.stdout).toContain(command);
    expect(outcome.stdout).toContain('Exit codes:');
    const chatHelp = await runHolodeckCli(['chat', '--help'], env);
    expect(chatHelp.stdout).toContain('-p, --prompt <text>');
  });

  it('stops quietly when the reader of its output goes away (holodeck schema | head)', async () => {
    const child = spawn(process.execPath, [HOLODECK_BIN, 'schema'], { env: { ...env, NO_COLOR: '1' } });
    child.stdout.destroy(); // closed before the first write: every write gets EPIPE
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const [code] = await once(child, 'close');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('exits 2 on an unknown command', async () => {
    const outcome = await runHolodeckCli(['chta'], env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain("unknown command 'chta'");
  });
});
