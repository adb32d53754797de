import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/index.js';
import { type RunningNovarchServer, startNovarchServer } from '../../../src/server/start-novarch-server.js';
import { recordCalibrationScenario } from '../../store/calibration-scenario.js';
import { RULES_V1, recordGlobexRefund } from '../../store/replay-scenario.js';
import { runNovarch } from './run-novarch-in-process.js';

// `novarch rules calibrate --server`: the rules pushed for a tenant's team, against that tenant's
// decided holds, under an admin token whose grants reach it.
const dir = mkdtempSync(path.join(os.tmpdir(), 'novarch-calibrate-server-'));
const storeFile = path.join(dir, 'novarch.db');
let server: RunningNovarchServer;
let admin: string;
let operator: string;
let globexAdmin: string;
const remote = (token: string, ...args: string[]) =>
  runNovarch([...args, '--server', server.url], { cwd: dir, env: { USER: 'ana', NOVARCH_TOKEN: token } });

beforeAll(async () => {
  writeFileSync(path.join(dir, 'rules.yaml'), RULES_V1);
  const store = await openSqliteStore(storeFile);
  try {
    await recordCalibrationScenario(store);
    // globex, another tenant with a team of the same name: its approved hold must not count for acme.
    const { session: globex, action } = await recordGlobexRefund(store, {
      recordId: 'G1',
      summary: 'g',
      amount: 990,
    });
    await store.recordVerdict({
      actionId: action.id,
      sessionId: globex.id,
      verdict: { kind: 'hold', citations: { ruleIds: ['TEAM-2'], evidenceIds: [], rationale: 'over 500' } },
      source: 'judge',
    });
    const hold = await store.createHold(action.id, globex.id, new Date(Date.now() + 60_000));
    await store.decideHold(hold.id, 'approved', 'gia');
  } finally {
    await store.close();
  }
  server = await startNovarchServer({
    storeUrl: `sqlite:${storeFile}`,
    host: '127.0.0.1',
    port: 0,
    rules: [],
    holdWindowSeconds: 30,
    log: () => {},
  });
  const { identities } = server.stores;
  admin = (
    await identities.createOperatorToken({ name: 'root', role: 'admin', grants: [{ tenantId: 'acme' }] })
  ).secret;
  operator = (
    await identities.createOperatorToken({ name: 'ana', role: 'operator', grants: [{ tenantId: 'acme' }] })
  ).secret;
  globexAdmin = (
    await identities.createOperatorToken({ name: 'gia', role: 'admin', grants: [{ tenantId: 'globex' }] })
  ).secret;
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('novarch rules calibrate --server', () => {
  it("measures the tenant's pushed rules against its decided holds", async () => {
    const missing = await remote(admin, 'rules', 'calibrate', '--tenant', 'acme', '--team', 'cs-ops');
    expect(missing.code).toBe(2);
    expect(missing.error).toContain('team "cs-ops" of tenant "acme" has no rules pushed to this server');
    expect((await remote(admin, 'rules', 'push', 'rules.yaml', '--tenant', 'acme')).code).toBe(0);
    const result = await remote(
      admin,
      'rules',
      'calibrate',
      '--tenant',
      'acme',
      '--team',
      'cs-ops',
      '--json',
    );
    // The server has no LLM judge configured: the closed ticket's hold (TEAM-3) is not re-judged.
    expect(result.code).toBe(4);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      team: 'cs-ops',
      tenantId: 'acme',
      labelled: 2,
      fromHolds: 2,
      fromLabels: 0,
      notRejudged: 1,
    });
    expect(report.rules.find((rule: { ruleId: string }) => rule.ruleId === 'TEAM-2')).toMatchObject({
      judged: 1,
      needlessHolds: 1,
      confusion: { rule_kill_human_pass: 1 },
    });
  });

  it('is 404 to an admin of another tenant and refused to an operator', async () => {
    const other = await remote(globexAdmin, 'rules', 'calibrate', '--tenant', 'acme', '--team', 'cs-ops');
    expect(other.code).toBe(2);
    expect(other.error).toContain(
      'no team "cs-ops" of tenant "acme" is visible to this credential (HTTP 404)',
    );
    const notAdmin = await remote(operator, 'rules', 'calibrate', '--tenant', 'acme', '--team', 'cs-ops');
    expect(notAdmin.code).toBe(2);
    expect(notAdmin.error).toMatch(/HTTP 403/);
  });

  it('needs --tenant and --team, and refuses what only a store has', async () => {
    expect((await remote(admin, 'rules', 'calibrate', '--team', 'cs-ops')).error).toBe(
      'novarch rules calibrate --server: pass --tenant TENANT and --team TEAM (a server keeps each tenant apart).',
    );
    expect(
      (await remote(admin, 'rules', 'calibrate', 'rules.yaml', '--tenant', 'acme', '--team', 'cs-ops')).error,
    ).toBe(
      'novarch rules calibrate --server measures the rules pushed to the server against its decided holds, with its own judge: drop the rules file, --labels and --with-judge.',
    );
  });
});
