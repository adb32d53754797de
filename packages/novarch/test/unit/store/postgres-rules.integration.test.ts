import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NovarchEngine, openPostgresStore, rulesContentHash, storedRuleSource } from '../../../src/index.js';
import { usePostgresServer } from '../../store/postgres-server.js';
import { RULES_V1, RULES_V2, recordReplayScenario } from '../../store/replay-scenario.js';
import { runNovarch } from '../cli/run-novarch-in-process.js';

// Rules as data and replay on a real PostgreSQL server, through the library and the CLI.
const postgres = usePostgresServer();
const dir = mkdtempSync(path.join(os.tmpdir(), 'novarch-pg-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(path.join(dir, 'rules.yaml'), RULES_V1);
writeFileSync(path.join(dir, 'rules-v2.yaml'), RULES_V2);

describe('rules as data on PostgreSQL', () => {
  it('a push through one server instance is what the next judgement on another cites', async () => {
    const url = await postgres.freshDatabase();
    const pusher = await openPostgresStore(url);
    const judging = await openPostgresStore(url);
    try {
      const engine = new NovarchEngine({
        store: judging,
        rules: storedRuleSource(judging),
        holdWindowSeconds: 60,
      });
      const session = await engine.openSession({ tenantId: 'acme', teamId: 'cs-ops', agentId: 'cs-bot' });
      await pusher.pushRuleSet({ team: 'cs-ops', content: RULES_V1, pushedBy: 'ana' });
      const decision = await engine.decide(session, {
        actionType: 'close_ticket',
        toolName: 'close_ticket',
        input: {},
        context: { recordId: 'T-1', summary: 'close' },
      });
      expect(decision.verdict.citations.ruleSets).toEqual([
        { team: 'cs-ops', version: 1, contentHash: rulesContentHash(RULES_V1) },
      ]);
      const [entry] = await pusher.audit();
      expect(entry?.verdict?.verdict.citations.rules).toEqual([
        {
          id: 'TEAM-3',
          version: 1,
          ruleSet: { team: 'cs-ops', version: 1, contentHash: rulesContentHash(RULES_V1) },
        },
      ]);
    } finally {
      await pusher.close();
      await judging.close();
    }
  });

  it('novarch rules push, list, show and test work with --store postgres://', async () => {
    const url = await postgres.freshDatabase();
    const store = await openPostgresStore(url);
    const recorded = await recordReplayScenario(store);
    await store.close();
    const novarch = (...args: string[]) =>
      runNovarch(['--store', url, ...args], { cwd: dir, env: { USER: 'ana' } });
    expect((await novarch('rules', 'push', 'rules.yaml')).stdout).toMatch(/ as cs-ops v1 \(sha256:/);
    expect((await novarch('rules', 'push', 'rules-v2.yaml')).stdout).toMatch(/ as cs-ops v2 \(sha256:/);
    expect((await novarch('rules', 'list')).stdout).toMatch(/\ncs-ops {2}v1 .*\ncs-ops {2}v2 .*\n$/);
    expect((await novarch('rules', 'show', 'cs-ops', '1')).stdout).toBe(RULES_V1);
    const replay = await novarch('rules', 'test', 'rules-v2.yaml', '--json');
    expect(replay.code).toBe(4);
    const report = JSON.parse(replay.stdout);
    expect(report).toMatchObject({ team: 'cs-ops', judged: 5, sessions: 2, unchanged: 3, skipped: 1 });
    expect(report.changed.map((change: { actionId: string }) => change.actionId)).toEqual([
      recorded.medium.action.id,
    ]);
    expect(report.notRejudged.map((change: { actionId: string }) => change.actionId)).toEqual([
      recorded.close.action.id,
    ]);
  });

  it('a store that cannot be reached exits 1 and never prints the password', async () => {
    const unreachable = `postgres://novarch:pg-secret-77@127.0.0.1:${postgres.server().port + 2}/none?connect_timeout=2`;
    const result = await runNovarch(['--store', unreachable, 'rules', 'list'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.error).toMatch(
      /^Cannot open the Novarch store at postgres:\/\/novarch:\*\*\*@127\.0\.0\.1:\d+\/none\?connect_timeout=2: /,
    );
    expect(result.error).not.toContain('pg-secret-77');
  });
});
