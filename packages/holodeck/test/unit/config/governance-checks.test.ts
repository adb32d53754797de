import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkGovernanceFiles } from '../../../src/backends/governance/check-governance-files.js';
import { validateAgentFile } from '../../../src/config/index.js';
import type { ConfigIssue } from '../../../src/errors.js';
import { type AgentSandbox, BASE, createSandbox, lines } from './agent-sandbox.js';

let sandbox: AgentSandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.remove());

const RULES = lines(
  'team: cs-ops',
  'action_types: [refund_order, cancel_order]',
  'rules:',
  '  - id: TEAM-2',
  '    version: 1',
  '    description: Refunds over 500 are held for a human.',
  '    applies_to: [refund_order]',
  '    on_violation: hold',
  '    condition: action.context.amount <= 500',
);

const RULES_HINT =
  'check the path; a rules file has team:, action_types: [...] and rules: (each with id, version, description, applies_to, on_violation, and optionally condition, mode, approvals and approvers)';
const CEL_HINT =
  'a condition is a CEL expression over action, evidence and session that is true when the rule is satisfied, e.g. action.context.amount <= 500';

/** agent.yaml lines 7-18 (7-19 with a config_file): a governed agent; `extra` lines follow under write_specs. */
function governed(options: { actionType?: string; configFile?: string; extra?: string[] } = {}): string[] {
  return [
    ...BASE,
    'governance:',
    '  tenant_id: acme',
    '  team_id: cs-ops',
    '  agent_id: support-bot',
    '  rules_file: rules.yaml',
    ...(options.configFile === undefined ? [] : [`  config_file: ${options.configFile}`]),
    '  tool_kinds:',
    '    lookup_order: read',
    '    refund_order: write',
    '  write_specs:',
    '    refund_order:',
    `      action_type: ${options.actionType ?? 'refund_order'}`,
    '      record_id: order_id',
    ...(options.extra ?? []),
  ];
}

/** What `holodeck validate` runs: agent.yaml's checks plus Novarch's loaders on the governance files. */
async function validate(rows: string[], files: Record<string, string> = { 'rules.yaml': RULES }) {
  for (const [name, content] of Object.entries(files)) await sandbox.write(name, content);
  await sandbox.write('agent.yaml', lines(...rows));
  return validateAgentFile(sandbox.agentFile, { env: {}, homeDir: sandbox.home, checkGovernanceFiles });
}

/** `file:line:column path: message | hint`, with the file relative to the agent folder. */
function shown(issue: ConfigIssue): string {
  const where = [path.relative(sandbox.dir, issue.file), issue.line, issue.column]
    .filter((part) => part !== undefined)
    .join(':');
  const hint = issue.hint === undefined ? '' : ` | ${issue.hint}`;
  return `${where} ${issue.path}: ${issue.message}${hint}`;
}

describe('governance: the rules and config files (holodeck validate)', () => {
  it('accepts a governed agent whose files load and declare its action types', async () => {
    const result = await validate(governed({ configFile: 'novarch.yaml' }), {
      'rules.yaml': RULES,
      'novarch.yaml': 'hold_window_seconds: 5\nstore:\n  path: novarch.db\n',
    });
    expect(result.issues).toEqual([]);
    expect(result.agent?.config.governance?.rules_file).toBe(path.join(sandbox.dir, 'rules.yaml'));
  });

  /** Issue 24: a misspelt kind must not make a write tool run unjudged; agent.yaml refuses it. */
  it.each(['Write', "' write'", 'readonly'])('refuses the tool kind %s with its line', async (kind) => {
    const rows = governed().map((row) =>
      row === '    refund_order: write' ? `    refund_order: ${kind}` : row,
    );
    const result = await validate(rows);
    expect(result.agent).toBeUndefined();
    expect(result.issues.map(shown).join('\n')).toMatch(
      /^agent\.yaml:\d+:\d+ governance\.tool_kinds\.refund_order: .*"read".*"write"/,
    );
  });

  it('reports a missing rules file as Novarch does', async () => {
    const result = await validate(governed(), {});
    expect(result.issues.map(shown)).toEqual([`rules.yaml : rules file not found | ${RULES_HINT}`]);
  });

  it('reports a rules file that cannot be read', async () => {
    await sandbox.write('rules.yaml/keep', '');
    const result = await validate(governed(), {});
    expect(result.issues.map(shown)).toEqual([
      `rules.yaml : rules file cannot be read (Error: EISDIR: illegal operation on a directory, read) | ${RULES_HINT}`,
    ]);
  });

  it('reports malformed YAML in the rules file with its line', async () => {
    const result = await validate(governed(), {
      'rules.yaml': 'team: cs-ops\naction_types: [refund_order\nrules: []\n',
    });
    expect(result.issues.map(shown)).toEqual([
      'rules.yaml:3:1 : invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] | check the indentation, quotes and brackets on this line and the one before it',
    ]);
  });

  it('reports unknown fields and CEL syntax errors of the rules file, with agent.yaml issues, all at once', async () => {
    const rules = RULES.replace('    version: 1', '    versoin: 1').replace(
      'action.context.amount <= 500',
      'action.context.amount <=',
    );
    const result = await validate(['bogus: 1', ...governed()], { 'rules.yaml': rules });
    expect(result.issues.map(shown)).toEqual([
      'agent.yaml:1:1 bogus: unknown key "bogus" at the top level | allowed keys: "name", "description", "author", "model", "pricing", "instructions", "response_format", "max_turns", "tools", "embedding_provider", "claude", "governance", "observability", "serve", "tool_filtering", "evaluations", "test_cases", "test_cases_file", "default_case", "optimize", "matrix"',
      'rules.yaml:4:5 rules[0].version: missing required key "version" in rules[0]',
      'rules.yaml:5:5 rules[0].versoin: unknown key "versoin" in rules[0] | did you mean "version"?',
      `rules.yaml:9:40 rules[0].condition: CEL syntax error: Unexpected token: EOF | ${CEL_HINT}`,
    ]);
  });

  it('reports the problems of the Novarch config file', async () => {
    const result = await validate(governed({ configFile: 'novarch.yaml' }), {
      'rules.yaml': RULES,
      'novarch.yaml': 'hold_window_secs: 5\n',
    });
    expect(result.issues.map(shown)).toEqual([
      'novarch.yaml:1:1 hold_window_secs: unknown key "hold_window_secs" at the top level | did you mean "hold_window_seconds"?',
    ]);
    const missing = await validate(governed({ configFile: 'missing.yaml' }));
    expect(missing.issues.map(shown)).toEqual([
      'missing.yaml : Novarch configuration file not found | check the path; keys: hold_window_seconds (default 300), judge: {provider: anthropic, model}, store: {path, redact, replace_default_redactions, max_stored_bytes}, rules: [files], server: {listen, store_url, public_url, drain_timeout_seconds, tenants: {ID: {hold_window_seconds, webhook: {url}}}, slack: {channels: {teams, rules}, operators, api_url, secrets_file}}',
    ]);
  });

  it('reports a write spec action_type the rules file does not declare, at its agent.yaml line', async () => {
    const typo = await validate(governed({ actionType: 'refnd_order' }));
    expect(typo.issues.map(shown)).toEqual([
      'agent.yaml:17:20 governance.write_specs.refund_order.action_type: action type "refnd_order" is not declared in rules.yaml; Novarch would kill the session at the first refund_order call | did you mean "refund_order"? rules.yaml declares "refund_order", "cancel_order"; use one of them, or add "refnd_order" to its action_types',
    ]);
    const unknown = await validate(governed({ actionType: 'wire_money' }));
    expect(unknown.issues.map(shown)).toEqual([
      'agent.yaml:17:20 governance.write_specs.refund_order.action_type: action type "wire_money" is not declared in rules.yaml; Novarch would kill the session at the first refund_order call | rules.yaml declares "refund_order", "cancel_order"; use one of them, or add "wire_money" to its action_types',
    ]);
  });

  it('checks action types against a rules file that has other problems', async () => {
    const rules = RULES.replace('action.context.amount <= 500', 'action.context.amount <=');
    const result = await validate(governed({ actionType: 'wire_money' }), { 'rules.yaml': rules });
    expect(result.issues.map((issue) => `${path.basename(issue.file)}:${issue.line} ${issue.path}`)).toEqual([
      'agent.yaml:17 governance.write_specs.refund_order.action_type',
      'rules.yaml:9 rules[0].condition',
    ]);
  });

  it('does not read a rules file named by an unset variable; the variable is reported once', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an agent.yaml variable reference
    const rows = governed().map((row) => row.replace('rules_file: rules.yaml', 'rules_file: ${RULES}'));
    const result = await validate(rows, {});
    expect(result.issues.map(shown)).toEqual([
      `agent.yaml:11:15 governance.rules_file: environment variable "RULES" is not set | set RULES in ${path.join(sandbox.dir, '.env')}, ${path.join(sandbox.home, '.holodeck', '.env')} or the environment, or give a default: \${RULES:-value}`,
    ]);
  });
});

describe('governance: tool_kinds and write_specs (every load, also chat and test)', () => {
  it('reports a write tool without a write spec', async () => {
    const rows = governed().slice(0, -4);
    const result = await sandbox.validate(lines(...rows));
    expect(result.issues.map(shown)).toEqual([
      'agent.yaml:7:1 governance.write_specs.refund_order: write tool "refund_order" has no write spec | add write_specs.refund_order: {action_type, record_id, summary?, amount?}',
    ]);
  });

  it('reports a write spec of a read tool, and of a tool not in tool_kinds', async () => {
    const extra = [
      '    lookup_order:',
      '      action_type: refund_order',
      '      record_id: order_id',
      '    refund_ordr:',
      '      action_type: refund_order',
      '      record_id: order_id',
      '    close_ticket:',
      '      action_type: refund_order',
      '      record_id: ticket_id',
    ];
    const result = await sandbox.validate(lines(...governed({ extra })));
    expect(result.issues.map(shown)).toEqual([
      'agent.yaml:19:5 governance.write_specs.lookup_order: write spec for "lookup_order", which tool_kinds lists as a read tool | write specs are for write tools: set tool_kinds.lookup_order: write, or remove write_specs.lookup_order',
      'agent.yaml:22:5 governance.write_specs.refund_ordr: write spec for "refund_ordr", which is not in tool_kinds | did you mean "refund_order"? write_specs keys are tool names from tool_kinds',
      'agent.yaml:25:5 governance.write_specs.close_ticket: write spec for "close_ticket", which is not in tool_kinds | write specs are for write tools: set tool_kinds.close_ticket: write, or remove write_specs.close_ticket',
    ]);
  });
});
