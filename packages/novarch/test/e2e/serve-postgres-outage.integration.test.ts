import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type RunningPostgres, startPostgres } from '@holodeck/testkit/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentOverHttp } from './support/agent-over-http.js';
import { JUDGED_WRITE_RULES } from './support/judged-write-rules.js';
import { type NovarchServerProcess, startServerProcess } from './support/novarch-server-process.js';
import { createSecret } from './support/run-novarch-cli.js';

// `novarch serve` on PostgreSQL while PostgreSQL ends its connections (pg_terminate_backend, as a
// restart or failover does) and then refuses new ones for a while: the server keeps running,
// answers 503 while the database is gone (nothing passes), and answers normally once it is back.

let postgres: RunningPostgres;
let admin: pg.Client;
let database = '';
let server: NovarchServerProcess;
let agentKey = '';

beforeAll(async () => {
  postgres = await startPostgres();
  const url = await postgres.createDatabase('novarch_outage');
  database = new URL(url).pathname.slice(1);
  admin = new pg.Client({ connectionString: postgres.connectionString });
  await admin.connect();
  const directory = mkdtempSync(path.join(tmpdir(), 'novarch-outage-'));
  writeFileSync(path.join(directory, 'rules.yaml'), JUDGED_WRITE_RULES);
  const config = path.join(directory, 'novarch.yaml');
  writeFileSync(config, `hold_window_seconds: 60\nrules: [rules.yaml]\nserver:\n  store_url: ${url}\n`);
  agentKey = await createSecret(['keys', 'create', '--config', config, '--tenant', 'acme', '--name', 'bot']);
  server = await startServerProcess(['--config', config]);
}, 120_000);

afterAll(async () => {
  if (server !== undefined && server.child.exitCode === null) server.child.kill('SIGKILL');
  await admin?.end().catch(() => {});
  await postgres?.stop();
}, 60_000);

/** Ends every connection of the store's database but the test's own. */
async function terminateBackends(): Promise<number> {
  const result = await admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [database],
  );
  return result.rowCount ?? 0;
}

async function allowConnections(allowed: boolean): Promise<void> {
  await admin.query(`alter database "${database}" with allow_connections ${allowed}`);
}

describe('novarch serve on PostgreSQL when PostgreSQL ends its connections', () => {
  it('keeps answering under load while backends are terminated, 503 while the database is gone, then recovers', async () => {
    const agent = agentOverHttp(server.url, agentKey);
    const statuses = new Map<number, number>();
    let stop = false;
    async function load(): Promise<void> {
      while (!stop) {
        try {
          const opened = await agent.call('POST', '/v1/sessions', { teamId: 'cs-ops', agentId: 'bot' });
          statuses.set(opened.status, (statuses.get(opened.status) ?? 0) + 1);
          if (opened.status !== 201) continue;
          const id = (opened.body as { id: string }).id;
          const read = await agent.call('GET', `/v1/sessions/${id}`);
          statuses.set(read.status, (statuses.get(read.status) ?? 0) + 1);
        } catch {
          // The server went away (or dropped the connection): recorded, asserted on below.
          statuses.set(-1, (statuses.get(-1) ?? 0) + 1);
          return;
        }
      }
    }
    const workers = [load(), load(), load()];
    // Connections ended mid-load, three times (idle ones and ones in use).
    for (let round = 0; round < 3; round++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await terminateBackends();
    }
    // The database gone: connections ended and new ones refused.
    await allowConnections(false);
    await terminateBackends();
    const during = await agent.call('POST', '/v1/sessions', { teamId: 'cs-ops', agentId: 'bot' });
    expect(during.status).toBe(503);
    expect(during.body).toMatchObject({ status: 503, title: 'Service Unavailable' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(server.child.exitCode).toBeNull();
    // Back again: the server recovers on its own.
    await allowConnections(true);
    const deadline = Date.now() + 20_000;
    let after = await agent.call('POST', '/v1/sessions', { teamId: 'cs-ops', agentId: 'bot' });
    while (after.status !== 201 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      after = await agent.call('POST', '/v1/sessions', { teamId: 'cs-ops', agentId: 'bot' });
    }
    expect(after.status).toBe(201);
    stop = true;
    await Promise.all(workers);
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).not.toMatch(/Connection terminated|uncaught|Error:/i);
    // Every answer was a success or a 503; never a 500, never a dropped connection (-1).
    expect([...statuses.keys()].filter((status) => ![200, 201, 503].includes(status))).toEqual([]);
    expect(statuses.get(201) ?? 0).toBeGreaterThan(0);
    // The server still works end to end: a judged credit that passes and is let run.
    const id = (after.body as { id: string }).id;
    const credit = await agent.call('POST', `/v1/sessions/${id}/actions`, {
      actionType: 'issue_credit',
      toolName: 'mcp__cs__issue_credit',
      input: { customer_id: 'C1', amount: 10 },
      context: { recordId: 'C1', summary: 'credit C1', amount: 10 },
      release: true,
    });
    expect(credit.status).toBe(200);
    expect(credit.body).toMatchObject({ verdict: { kind: 'pass' }, release: { released: true } });
  });
});
