import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/index.js';
import { recordCalibrationScenario } from '../../store/calibration-scenario.js';
import { RULES_V1 } from '../../store/replay-scenario.js';
import { runNovarch } from './run-novarch-in-process.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'novarch-calibrate-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const storeFile = path.join(dir, 'novarch.db');
writeFileSync(path.join(dir, 'rules.yaml'), RULES_V1);
const novarch = (...args: string[]) =>
  runNovarch(['--store', storeFile, ...args], { cwd: dir, env: { USER: 'ana' } });
let recorded: Awaited<ReturnType<typeof recordCalibrationScenario>>;

beforeAll(async () => {
  const store = await openSqliteStore(storeFile);
  try {
    recorded = await recordCalibrationScenario(store);
    await store.pushRuleSet({ team: 'cs-ops', content: RULES_V1, pushedBy: 'ana' });
  } finally {
    await store.close();
  }
});

describe('novarch rules label and rules calibrate', () => {
  it('labels an action by its id or its verdict id, into novarch-labels.yaml, and refuses others', async () => {
    const labelled = await novarch(
      'rules',
      'label',
      recorded.small.action.id,
      'kill',
      '--comment',
      'too generous',
    );
    expect(labelled).toMatchObject({ code: 0 });
    expect(labelled.stdout).toBe(
      `labelled action ${recorded.small.action.id} (team cs-ops, tenant acme) kill in ${path.join(dir, 'novarch-labels.yaml')}\n`,
    );
    const text = readFileSync(path.join(dir, 'novarch-labels.yaml'), 'utf8');
    expect(text).toContain(`action: ${recorded.small.action.id}`);
    expect(text).toContain('by: ana');
    expect(text).toContain('comment: too generous');
    const unknown = await novarch('rules', 'label', 'act_nope', 'kill');
    expect(unknown.code).toBe(2);
    expect(unknown.error).toMatch(
      /^novarch rules label: no action or verdict with id "act_nope" in the store at /,
    );
    const bad = await novarch('rules', 'label', recorded.small.action.id, 'maybe');
    expect(bad).toMatchObject({
      code: 2,
      error: 'novarch rules label: the verdict is pass or kill; got "maybe".',
    });
  });

  it("reports per rule against decided holds and labels, from a file or the team's pushed rules", async () => {
    const fromFile = await novarch('rules', 'calibrate', 'rules.yaml', '--json');
    // TEAM-3 is an LLM rule: without --with-judge its labelled action is not re-judged (exit 4).
    expect(fromFile.code).toBe(4);
    const report = JSON.parse(fromFile.stdout);
    expect(report).toMatchObject({
      team: 'cs-ops',
      labelled: 3,
      fromHolds: 2,
      fromLabels: 1,
      notRejudged: 1,
      reversedPasses: 1,
    });
    expect(report.rules.find((rule: { ruleId: string }) => rule.ruleId === 'TEAM-2')).toMatchObject({
      judged: 2,
      needlessHolds: 1,
      confusion: { rule_kill_human_pass: 1, rule_pass_human_kill: 1 },
    });
    const pushed = await novarch('rules', 'calibrate', '--team', 'cs-ops');
    expect(pushed.code).toBe(4);
    expect(pushed.stdout).toContain(
      'Calibration of team cs-ops: 3 labelled actions (2 from decided holds, 1 from labels)\npasses a human later reversed: 1\n1 labelled actions of LLM rules not re-judged: pass --with-judge --config FILE',
    );
    expect(pushed.stdout).toMatch(/\nTEAM-2 +cel +2 +0% +-1\.00 \[-1\.00, -1\.00\] +0 +1 +1 +0 +1\n/);
  });

  it('needs a team or a file; rules label keeps labels in a local file, not on a server', async () => {
    expect(await novarch('rules', 'calibrate')).toMatchObject({
      code: 2,
      error: 'novarch rules calibrate: name the team (--team T, its latest pushed rules) or a rules file.',
    });
    const server = await runNovarch(['--server', 'http://127.0.0.1:1', 'rules', 'label', 'x', 'kill'], {
      cwd: dir,
    });
    expect(server.code).toBe(2);
    expect(server.error).toContain('novarch rules label works on a store, not through a server (yet)');
  });
});
