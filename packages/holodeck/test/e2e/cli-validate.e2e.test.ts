import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    expect(outcome.stderr).toBe(
      'warning auth_provider "api_key" needs ANTHROPIC_API_KEY, which is not set here: `holodeck chat` will stop until it is.\n',
    );
    expect(outcome.stdout).toMatch(/is valid \(1 warning\)\n$/);
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
