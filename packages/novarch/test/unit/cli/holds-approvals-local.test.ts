import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/index.js';
import { loadRulesFile } from '../../../src/rules/load-rules-file.js';
import { inSeconds, recordRefund, scope } from '../../store/conformance-context.js';
import { runNovarch } from './run-novarch-in-process.js';

// `novarch holds approve|deny` on a local store: a quorum counts distinct operator names; a hold
// whose rule names approver groups cannot be decided locally (a local operator has no token, so no
// group): the message says to decide it on the server.

const dir = mkdtempSync(path.join(tmpdir(), 'novarch-approvals-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;

async function storeWithHold(
  policy: Parameters<Awaited<ReturnType<typeof openSqliteStore>>['createHold']>[3],
) {
  count += 1;
  const file = path.join(dir, `store-${count}.db`);
  const store = await openSqliteStore(file);
  const session = await store.createSession(scope(), 300);
  const action = await recordRefund(store, session, 9000);
  const hold = await store.createHold(action.id, session.id, inSeconds(300), policy);
  await store.close();
  const novarch = (operator: string | undefined, ...args: string[]) =>
    runNovarch(['--store', file, ...args, ...(operator === undefined ? [] : ['--operator', operator])], {
      cwd: dir,
      env: {},
    });
  return { file, hold, novarch };
}

describe('approvals on a local store', () => {
  it('two approvals from distinct operators: the first is recorded and waits, the same name twice is refused', async () => {
    const { hold, novarch } = await storeWithHold({ approvals: 2, approverGroups: [] });
    const first = await novarch('ana', 'holds', 'approve', hold.id, '--rationale', 'checked');
    expect(first).toMatchObject({ code: 0 });
    expect(first.stdout).toBe(
      `Approval of hold ${hold.id} recorded: 1 of 2 approvals (ana); needs 1 more.\n` +
        'The write still waits: 1 more approval from other operators let it run; one deny refuses it.\n',
    );
    const again = await novarch('ana', 'holds', 'approve', hold.id);
    expect(again.code).not.toBe(0);
    expect(again.error).toBe(
      `Operator ana already approved hold ${hold.id} (1 of 2 approvals): each approval must come from a different operator. Nothing was changed.`,
    );
    const shown = await novarch(undefined, 'holds', 'show', hold.id);
    expect(shown.stdout).toContain('  approvals  1 of 2 approvals (ana); needs 1 more\n');
    const listed = await novarch(undefined, 'holds', 'list');
    expect(listed.stdout).toContain('pending (waiting) 1/2 approved');
    const second = await novarch('bo', 'holds', 'approve', hold.id);
    expect(second.stdout).toMatch(new RegExp(`^Hold ${hold.id} approved by bo\\n`));
  });

  it('a hold whose rule names approver groups is refused locally, saying to decide it on the server', async () => {
    const { hold, novarch } = await storeWithHold({
      approvals: 1,
      approverGroups: [{ ruleId: 'TEAM-2', groups: ['finance'] }],
    });
    for (const command of ['approve', 'deny']) {
      const refused = await novarch('ana', 'holds', command, hold.id, '--rationale', 'x');
      expect(refused.code).not.toBe(0);
      expect(refused.error).toBe(
        `Hold ${hold.id} must be decided by an operator in approver group finance (rule TEAM-2), and a local operator has no groups: decide it on the server (novarch holds ${command} ${hold.id} --server URL) with an operator token of that group. Nothing was changed.`,
      );
    }
  });
});

describe('approvals: in a rules file', () => {
  it('approvals and approvers on a kill rule are refused with where and how to fix', async () => {
    const file = path.join(dir, 'kill-approvals.rules.yaml');
    writeFileSync(
      file,
      [
        'team: cs-ops',
        'action_types: [issue_refund]',
        'rules:',
        '  - id: TEAM-1',
        '    version: 1',
        '    description: no refunds',
        '    applies_to: [issue_refund]',
        '    on_violation: kill',
        '    condition: "false"',
        '    approvals: 2',
        '',
      ].join('\n'),
    );
    await expect(loadRulesFile(file)).rejects.toThrow(
      `1 problem in rules file:\n${file}:10:16  rules[0].approvals: approvals applies to a rule with on_violation: hold; this rule kills, so no operator decides it\n    hint: remove approvals:, or set on_violation: hold`,
    );
  });

  it('approvals out of range and a malformed group are refused', async () => {
    const file = path.join(dir, 'bad-approvals.rules.yaml');
    writeFileSync(
      file,
      [
        'team: cs-ops',
        'action_types: [issue_refund]',
        'rules:',
        '  - id: TEAM-2',
        '    version: 1',
        '    description: big refunds',
        '    applies_to: [issue_refund]',
        '    on_violation: hold',
        '    approvals: 11',
        '    approvers: ["finance leads"]',
        '',
      ].join('\n'),
    );
    const error = await loadRulesFile(file).catch((caught: unknown) => String(caught));
    expect(error).toContain('rules[0].approvals');
    expect(error).toContain('rules[0].approvers[0]');
    expect(error).toContain('an approver group is 1-64 letters, digits and . _ - (e.g. finance-leads)');
  });
});

describe('approve with edit on a local store', () => {
  it('--input stores the edit and says it is judged again; a bad --input is refused with how to fix', async () => {
    const { hold, novarch } = await storeWithHold(undefined);
    const notJson = await novarch('ana', 'holds', 'approve', hold.id, '--input', '{amount: 1');
    expect(notJson.code).toBe(2);
    expect(notJson.error).toMatch(
      /^--input is not JSON \(.+\): pass the whole tool input as a JSON object, e\.g\. --input '\{"order_id":"A-1","amount":400\}'\.$/,
    );
    const list = await novarch('ana', 'holds', 'approve', hold.id, '--input', '[1]');
    expect(list.error).toBe(
      `--input must be a JSON object (the tool's whole input), got an array: e.g. --input '{"order_id":"A-1","amount":400}'.`,
    );
    const deny = await novarch(
      'ana',
      'holds',
      'deny',
      hold.id,
      '--rationale',
      'no',
      '--input',
      '{"amount":1}',
    );
    expect(deny.error).toBe(
      `novarch holds deny takes no edited input: only an approval may change what runs (novarch holds approve ${hold.id} --input JSON).`,
    );
    const approved = await novarch(
      'ana',
      'holds',
      'approve',
      hold.id,
      '--input',
      '{"customerId":"c-1","amount":50}',
    );
    expect(approved.code).toBe(0);
    expect(approved.stdout).toBe(
      `Hold ${hold.id} approved by ana\n` +
        "The gate checks the edited input against the tool's schema and the rules judge it again: it runs with the edited input only if they allow it (the audit shows that verdict); the agent’s own input does not run.\n",
    );
    const shown = await novarch(undefined, 'holds', 'show', hold.id);
    expect(shown.stdout).toContain('  edited     by ana: {"customerId":"c-1","amount":50}\n');
  });
});
