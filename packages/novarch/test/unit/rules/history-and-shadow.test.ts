import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore, validateRulesSource } from '../../../src/index.js';
import {
  checkEvidenceHistoryScenario,
  checkHistoryScenario,
  HISTORY_RULES,
} from '../../store/history-scenario.js';
import { runNovarch } from '../cli/run-novarch-in-process.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'novarch-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The one problem a rules file with `condition` as its LIMIT-1 condition has, as a push shows it. */
function problemOf(condition: string): string {
  const source = HISTORY_RULES.replace(
    /condition: "history\.count\('issue_refund'.*\n/,
    `condition: ${JSON.stringify(condition)}\n`,
  );
  const issues = validateRulesSource(source, 'rules.yaml').issues;
  expect(issues).toHaveLength(1);
  return `${issues[0]?.message} | ${issues[0]?.hint}`;
}

describe('history conditions and shadow mode on SQLite', () => {
  it('judges refunds by their history, records shadow outcomes, and replays them unchanged', async () => {
    const file = path.join(dir, 'scenario.db');
    const store = await openSqliteStore(file);
    try {
      await checkHistoryScenario(store);
    } finally {
      await store.close();
    }
    const report = await runNovarch(['--store', file, 'rules', 'report', '--team', 'cs-ops'], { cwd: dir });
    expect(report.code).toBe(0);
    expect(report.stdout).toMatch(
      /^Monitored rules of team cs-ops, over 5 judged writes:\nSHADOW-1 v1: evaluated 5, would have held 1, would have killed 0\n {2}act_\S+: pass → hold: SHADOW-1 v1 \(hold\): A second refund to one customer in a session is held\. \(condition is false\)\n$/,
    );
    expect(report.stdout.split('\n').filter((row) => row.startsWith('  act_'))).toHaveLength(1);
    const json = await runNovarch(['--store', file, 'rules', 'report', '--team', 'cs-ops', '--json'], {
      cwd: dir,
    });
    expect(JSON.parse(json.stdout)).toMatchObject({
      team: 'cs-ops',
      judged: 5,
      rules: [{ ruleId: 'SHADOW-1', version: 1, evaluated: 5, wouldHold: 1, wouldKill: 0 }],
    });
  });

  it('judges refunds by past evidence (reads) of the session and the agent, and replays them unchanged', async () => {
    const store = await openSqliteStore(path.join(dir, 'evidence.db'));
    try {
      await checkEvidenceHistoryScenario(store);
    } finally {
      await store.close();
    }
  });

  it('rules report needs --team and a store', async () => {
    const noTeam = await runNovarch(['--store', path.join(dir, 'none.db'), 'rules', 'report'], { cwd: dir });
    expect(noTeam.code).toBe(2);
    expect(noTeam.error).toContain(
      'novarch rules report: pass --team TEAM, the team whose monitored rules to report on.',
    );
    const server = await runNovarch(['--server', 'http://127.0.0.1:1', 'rules', 'report', '--team', 'x'], {
      cwd: dir,
    });
    expect(server.error).toContain(
      'novarch rules report reads recorded verdicts on a store, not through a server: drop --server',
    );
  });

  it('rejects bad history calls at push, saying what and how to fix', () => {
    const usage = 'history.count(action_type, window[, filter])';
    expect(problemOf("history.count('issue_refund', '1w') < 3")).toBe(
      `invalid CEL condition: history.count: unknown window "1w": a window is a whole number and a unit, s, m, h or d (e.g. '30m', '24h', '7d') | ${problemOf("history.count('issue_refund', '1w') < 3").split(' | ')[1]}`,
    );
    expect(problemOf("history.count('issue_refund', '1w') < 3")).toContain(usage);
    expect(problemOf("history.count('issue_refund', '100d') < 3")).toContain(
      `history.count: window "100d" is longer than the longest one, '90d'`,
    );
    expect(problemOf("history.count('issue_refund', 24) < 3")).toContain(
      "invalid CEL condition: found no matching overload for 'History.count(string, int)'",
    );
    expect(problemOf("history.count('issue_refund', 24) < 3")).toContain(usage);
    expect(problemOf("history.count('issue_refund', action.tool) < 3")).toContain(
      "history.count: the window must be written as a string literal (a push checks it), e.g. '24h'",
    );
    expect(problemOf("history.sum('issue_refund', 'amount', '24h') < 3")).toContain(
      'history.sum: "amount" is not a field of an action: write context.<key> or input.<key>',
    );
    expect(problemOf("history.count('issue_refund', '24h', {'customer': 'C1'}) < 3")).toBe(
      `invalid CEL condition: history.count: unknown filter key "customer": a filter maps context.<key>, input.<key>, tool or released to a value, e.g. {'context.customer_id': action.context.customer_id} | a filter maps context.<key>, input.<key>, tool or released to a value, e.g. {'context.customer_id': action.context.customer_id}`,
    );
    expect(problemOf("history.count('issue_refnd', '24h') < 3")).toBe(
      'history.count: action type "issue_refnd" is not declared in action_types | did you mean "issue_refund"? or add "issue_refnd" to action_types',
    );
    expect(problemOf("history.count('issue_refund', '24h') + 'x'")).toContain(
      'no such overload: int + string',
    );
  });

  it('rejects bad history.evidence calls at push, saying what and how to fix', () => {
    const evidenceKeys =
      "a filter of history.evidence maps input.<key>, output.<key> or error to a value, e.g. {'input.customer_id': action.context.customer_id}";
    expect(problemOf("history.evidence.count('lookup', '24h', {'context.recordId': 'C1'}) < 3")).toBe(
      `invalid CEL condition: history.evidence.count: unknown filter key "context.recordId": ${evidenceKeys} | ${evidenceKeys}`,
    );
    expect(problemOf("history.session.evidence.exists('lookup', '1h', {'released': true})")).toBe(
      `invalid CEL condition: history.evidence.exists: unknown filter key "released": ${evidenceKeys} | ${evidenceKeys}`,
    );
    expect(problemOf("history.count('issue_refund', '24h', {'error': true}) < 3")).toContain(
      'invalid CEL condition: history.count: unknown filter key "error": a filter maps context.<key>, input.<key>, tool or released to a value',
    );
    expect(problemOf("history.agent.evidence.sum('lookup', 'context.amount', '24h') < 3.0")).toContain(
      'invalid CEL condition: history.evidence.sum: "context.amount" is not a field of evidence: write input.<key> or output.<key> (up to 4 keys, letters, digits and _)',
    );
    expect(problemOf("history.evidence.count(action.tool, '24h') < 3")).toContain(
      "invalid CEL condition: history.evidence.count: the tool name must be written as a string literal (a push checks it), e.g. '24h'",
    );
    expect(problemOf("history.evidence.count('lookup', '2w') < 3")).toContain(
      'invalid CEL condition: history.evidence.count: unknown window "2w"',
    );
    expect(problemOf("history.evidence.session.count('lookup', '1h') < 3")).toContain(
      'invalid CEL condition: No such key: session',
    );
    // A tool name is not an action type: no "not declared in action_types" for it.
    expect(
      validateRulesSource(
        HISTORY_RULES.replace(
          /condition: "history\.count\('issue_refund'.*\n/,
          `condition: "history.evidence.count('lookup_customer', '24h') < 3"\n`,
        ),
        'rules.yaml',
      ).issues,
    ).toEqual([]);
  });

  it('a monitored rule needs a condition', () => {
    const source = `team: t\naction_types: [a]\nrules:\n  - id: R-1\n    version: 1\n    description: d\n    applies_to: [a]\n    on_violation: hold\n    mode: monitor\n`;
    const issues = validateRulesSource(source, 'rules.yaml').issues;
    expect(issues.map((issue) => `${issue.path}: ${issue.message} | ${issue.hint}`)).toEqual([
      'rules[0].mode: mode: monitor needs a condition; a rule without one is judged by the LLM, which shadow mode does not call | give the rule a CEL condition, or remove mode: monitor',
    ]);
  });

  it('switching a rule to enforce is a new rule version, pushed and attributed', async () => {
    const file = path.join(dir, 'switch.db');
    await (await openSqliteStore(file)).close();
    writeFileSync(path.join(dir, 'rules.yaml'), HISTORY_RULES);
    const push = (...args: string[]) =>
      runNovarch(['--store', file, 'rules', 'push', 'rules.yaml', ...args], {
        cwd: dir,
        env: { USER: 'ana' },
      });
    expect((await push()).stdout).toMatch(/ as cs-ops v1 /);
    const enforced = HISTORY_RULES.replace('    mode: monitor\n', '');
    writeFileSync(path.join(dir, 'rules.yaml'), enforced);
    const refused = await push();
    expect(refused.code).toBe(2);
    expect(refused.error).toContain(
      'rule SHADOW-1 switches from mode monitor to enforce but keeps version 1 (stored in cs-ops v1 (stored))',
    );
    expect(refused.error).toContain('bump its version to 2: verdicts cite the rule version');
    writeFileSync(
      path.join(dir, 'rules.yaml'),
      enforced.replace('id: SHADOW-1\n    version: 1', 'id: SHADOW-1\n    version: 2'),
    );
    const accepted = await push();
    expect(accepted.stdout).toMatch(/ as cs-ops v2 \(sha256:\w+, by ana\)/);
  });
});
