import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../../src/index.js';
import { checkEvidenceHistoryScenario, checkHistoryScenario } from '../../store/history-scenario.js';
import { usePostgresServer } from '../../store/postgres-server.js';
import { runNovarch } from '../cli/run-novarch-in-process.js';

// History conditions and shadow mode on a real PostgreSQL server (the SQLite twin is
// test/unit/rules/history-and-shadow.test.ts; the store queries run in the conformance suite).
const postgres = usePostgresServer();
const dir = mkdtempSync(path.join(os.tmpdir(), 'novarch-pg-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('history conditions and shadow mode on PostgreSQL', () => {
  it('judges refunds by their history, records shadow outcomes, replays them unchanged, reports them', async () => {
    const url = await postgres.freshDatabase();
    const store = await openPostgresStore(url);
    try {
      await checkHistoryScenario(store);
    } finally {
      await store.close();
    }
    const report = await runNovarch(['--store', url, 'rules', 'report', '--team', 'cs-ops', '--json'], {
      cwd: dir,
    });
    expect(report.code).toBe(0);
    expect(JSON.parse(report.stdout)).toMatchObject({
      team: 'cs-ops',
      judged: 5,
      rules: [{ ruleId: 'SHADOW-1', version: 1, evaluated: 5, wouldHold: 1, wouldKill: 0 }],
    });
  });

  it('judges refunds by past evidence of the session and the agent, and replays them unchanged', async () => {
    const store = await openPostgresStore(await postgres.freshDatabase());
    try {
      await checkEvidenceHistoryScenario(store);
    } finally {
      await store.close();
    }
  });
});
