import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore, rulesContentHash } from '../../../src/index.js';
import { RULES_V1, RULES_V2, recordGlobexRefund, recordReplayScenario } from '../../store/replay-scenario.js';
import { runNovarch } from './run-novarch-in-process.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'novarch-rules-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const storeFile = path.join(dir, 'novarch.db');
const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};
const novarch = (...args: string[]) =>
  runNovarch(['--store', storeFile, ...args], { cwd: dir, env: { USER: 'ana' } });
let recorded: Awaited<ReturnType<typeof recordReplayScenario>>;

beforeAll(async () => {
  write('rules.yaml', RULES_V1);
  write('rules-v2.yaml', RULES_V2);
  const store = await openSqliteStore(storeFile);
  recorded = await recordReplayScenario(store);
  await store.close();
});

describe('novarch rules push|list|show|diff', () => {
  it('pushes versions, skips identical content, lists, shows and diffs them', async () => {
    expect(await novarch('rules', 'push', 'rules.yaml')).toEqual({
      code: 0,
      stdout: `Pushed ${dir}/rules.yaml as cs-ops v1 (sha256:${rulesContentHash(RULES_V1).slice(0, 12)}, by ana).\n`,
    });
    expect((await novarch('rules', 'push', 'rules.yaml', '--team', 'cs-ops')).stdout).toBe(
      `Unchanged: ${dir}/rules.yaml is cs-ops v1 already (sha256:${rulesContentHash(RULES_V1).slice(0, 12)}); nothing pushed.\n`,
    );
    const pushed = await novarch('rules', 'push', 'rules-v2.yaml', '--operator', 'bob', '--json');
    expect(JSON.parse(pushed.stdout)).toMatchObject({
      created: true,
      team: 'cs-ops',
      version: 2,
      pushedBy: 'bob',
    });

    const list = await novarch('rules', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toBe(
      'TEAM    VERSION  CONTENT HASH         PUSHED                    BY',
    );
    expect(list.stdout).toMatch(
      /\ncs-ops {2}v1 {7}sha256:[0-9a-f]{12} {2}\S+Z {2}ana\ncs-ops {2}v2 {7}sha256:[0-9a-f]{12} {2}\S+Z {2}bob\n$/,
    );
    expect((await novarch('rules', 'list', '--team', 'billing')).stdout).toBe(
      'No rules pushed yet (push a rules file with `novarch rules push FILE`).\n',
    );

    expect(await novarch('rules', 'show', 'cs-ops', '1')).toEqual({ code: 0, stdout: RULES_V1 });
    expect((await novarch('rules', 'show', 'cs-ops')).stdout).toBe(RULES_V2);
    expect(JSON.parse((await novarch('rules', 'show', 'cs-ops', 'v2', '--json')).stdout)).toMatchObject({
      version: 2,
      contentHash: rulesContentHash(RULES_V2),
      content: RULES_V2,
    });

    const diff = await novarch('rules', 'diff', 'cs-ops', '1', 'v2');
    expect(diff.code).toBe(0);
    const [from, to, ...body] = diff.stdout.split('\n');
    expect(from).toMatch(/^--- cs-ops v1 \(sha256:[0-9a-f]{12}, pushed \S+ by ana\)$/);
    expect(to).toMatch(/^\+\+\+ cs-ops v2 \(sha256:[0-9a-f]{12}, pushed \S+ by bob\)$/);
    expect(body.join('\n')).toBe(
      [
        '@@ -8,11 +8,11 @@',
        '     on_violation: kill',
        '     condition: evidence.exists(e, e.tool == "lookup_customer" && e.input.customer_id == action.context.recordId)',
        '   - id: TEAM-2',
        '-    version: 1',
        '-    description: Refunds over 500 are held for a human.',
        '+    version: 2',
        '+    description: Refunds over 200 are held for a human.',
        '     applies_to: [issue_refund]',
        '     on_violation: hold',
        '-    condition: action.context.amount <= 500',
        '+    condition: action.context.amount <= 200',
        '   - id: TEAM-3',
        '     version: 1',
        '     description: Never close a ticket the customer has not confirmed as solved.',
        '',
      ].join('\n'),
    );
  });

  it('refuses unknown teams and versions, bad versions and mismatched teams (exit 2)', async () => {
    // rules.yaml again after v2: a new version (v3), since the latest differs.
    await novarch('rules', 'push', 'rules.yaml');
    expect(await novarch('rules', 'show', 'cs-opz')).toMatchObject({
      code: 2,
      error: `No rules of team "cs-opz" in the store at ${storeFile}. Teams with rules: cs-ops.`,
    });
    expect(await novarch('rules', 'show', 'cs-ops', '9')).toMatchObject({
      code: 2,
      error: `Team cs-ops has no version 9 in the store at ${storeFile}: its versions are v1, v2, v3.`,
    });
    expect(await novarch('rules', 'diff', 'cs-ops', '1', 'latest')).toMatchObject({
      code: 2,
      error: 'novarch rules diff: expected a version number such as 3 or v3; got "latest".',
    });
    expect(await novarch('rules', 'push', 'rules.yaml', '--team', 'billing')).toMatchObject({
      code: 2,
      error: `--team billing: ${dir}/rules.yaml holds the rules of team "cs-ops" (its team: key). Pass --team cs-ops, or change team: in the file.`,
    });
    const broken = write('broken.yaml', 'team: cs-ops\naction_types: []\nrules: []\n');
    const refused = await novarch('rules', 'push', broken);
    expect(refused.code).toBe(2);
    expect(refused.error).toBe(
      `1 problem in rules file:\n${broken}:2:1  action_types: must have at least one item`,
    );
    expect(await novarch('rules', 'list', '--server', 'https://novarch.example.com')).toMatchObject({
      code: 2,
      error: "--server works on the server's store: drop --store and --config, or drop --server.",
    });
    expect(await novarch('rules', 'show', 'cs-ops', '--tenant', 'acme')).toMatchObject({
      code: 2,
      error:
        'novarch rules show: --tenant works with --server only: rules pushed to a store directly have no tenant (a server applies them to that team of every tenant without its own). Add --server URL, or drop --tenant.',
    });
    expect(
      await runNovarch(['--store', path.join(dir, 'absent.db'), 'rules', 'list'], { cwd: dir }),
    ).toMatchObject({
      code: 2,
      error: `No Novarch store at ${dir}/absent.db (from --store). Pass --store FILE (or --store postgres://…) or --config FILE, or set NOVARCH_STORE, to the store your agents use.`,
    });
    expect(
      await runNovarch(['--store', 'postgres://u:hunter2-pw@h/x?bad=1', 'rules', 'list'], { cwd: dir }),
    ).toMatchObject({
      code: 2,
      error:
        '--store: postgres://u:***@h/x?bad=1: unsupported parameter "bad"; supported: application_name, connect_timeout, options, sslmode, sslrootcert, sslcert, sslkey.',
    });
  });
});

describe('novarch rules test (replay)', () => {
  it('lists the decisions that would change with both verdicts and exits 4', async () => {
    const result = await novarch('rules', 'test', 'rules-v2.yaml');
    expect(result.code).toBe(4);
    const lines = result.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual([
      `Re-judged 5 decisions of 2 sessions of team cs-ops under ${dir}/rules-v2.yaml:`,
      '  1 would change, 1 not re-judged (LLM rule; pass --with-judge), 3 unchanged, 1 without a judge verdict (refused by the gate) skipped',
    ]);
    const changed = result.stdout.slice(
      result.stdout.indexOf('Would change:'),
      result.stdout.indexOf('Not re-judged ('),
    );
    expect(changed).toContain(
      `${recorded.medium.action.id}  session ${recorded.session.id}  agent cs-bot  issue_refund (agent) C1: (agent) refund 300 EUR`,
    );
    expect(changed).toMatch(
      / {2}was pass {2}rules \[TEAM-1 v1, TEAM-2 v1\] {2}by file sha256:[0-9a-f]{12}\n {6}all 2 rules for issue_refund satisfied \(TEAM-1, TEAM-2\)\n/,
    );
    expect(changed).toMatch(
      / {2}now hold {2}rules \[TEAM-2 v2\] {2}by .*rules-v2\.yaml sha256:[0-9a-f]{12}\n {6}TEAM-2 v2 \(hold\): Refunds over 200/,
    );
    expect(result.stdout).toContain(
      `Not re-judged (LLM rule; pass --with-judge):\n${recorded.close.action.createdAt}  ${recorded.close.action.id}`,
    );

    const json = JSON.parse((await novarch('rules', 'test', 'rules-v2.yaml', '--json')).stdout);
    expect(json.changed).toHaveLength(1);
    expect(json.changed[0]).toMatchObject({
      actionId: recorded.medium.action.id,
      before: { kind: 'pass' },
      after: { kind: 'hold', citations: { ruleIds: ['TEAM-2'] } },
    });
  });

  it('exits 0 when nothing is left to re-judge, and refuses bad flags (exit 2)', async () => {
    const none = await novarch('rules', 'test', 'rules-v2.yaml', '--since', '2999-01-01');
    expect(none.code).toBe(0);
    expect(none.stdout).toContain(
      'Re-judged 0 decisions of 0 sessions of team cs-ops since 2999-01-01T00:00:00.000Z',
    );
    expect(await novarch('rules', 'test', 'rules-v2.yaml', '--since', 'yesterday')).toMatchObject({
      code: 2,
      error:
        'novarch rules test: --since: expected a date (2026-05-01, midnight UTC) or a time with its zone (2026-05-01T12:00:00Z); got "yesterday".',
    });
    expect(await novarch('rules', 'test', 'rules-v2.yaml', '--with-judge')).toMatchObject({
      code: 2,
      error:
        '--with-judge needs an LLM judge: pass --config FILE, a Novarch configuration whose judge: section names it.',
    });
    expect((await novarch('rules', 'test', 'missing.yaml')).code).toBe(2);
  });

  // Last in the file: it adds a second tenant's session to the store the other tests share.
  it('refuses a team shared by two tenants without --tenant (exit 2), and replays one with it (exit 4: one decision would change)', async () => {
    const store = await openSqliteStore(storeFile);
    await recordGlobexRefund(store, { recordId: 'C1', summary: 'refund 900', amount: 900 });
    await store.close();
    expect(await novarch('rules', 'test', 'rules-v2.yaml')).toMatchObject({
      code: 2,
      error:
        "the sessions of team cs-ops belong to 2 tenants (acme, globex): pass --tenant TENANT to replay one tenant's decisions",
    });
    expect(
      (await novarch('rules', 'test', 'rules-v2.yaml', '--tenant', recorded.session.tenantId)).code,
    ).toBe(4);
  });
});
