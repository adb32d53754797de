import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { NovarchStoreError, openSqliteStore } from '../../src/index.js';
import { sqliteStoreDialect } from '../../src/store/open-sqlite-store.js';
import type { StoreDialect } from '../../src/store/store-dialect.js';
import { STORE_MIGRATIONS } from '../../src/store/store-migrations.js';
import type { StoreTables } from '../../src/store/store-tables.js';
import { createPendingHold } from '../store/conformance-context.js';
import {
  checkCoveringIndexMigration,
  historyQueryPlans,
  PLANNED_QUERIES,
  prefixed,
} from '../store/history-index-scenario.js';
import { checkHistoryMigration, fillHistory } from '../store/history-migration-scenario.js';
import { describeStoreConformance } from '../store/store-conformance.js';
import { createTempStoreFiles } from '../store/temp-store-file.js';

/** What a migration sees of the SQLite dialect (migrations only create and alter tables). */
const sqliteDialectForMigrations: StoreDialect = {
  sequenceType: 'integer',
  autoIncrementPrimaryKey: (column) => column.primaryKey().autoIncrement(),
  rowLocks: false,
  transaction: () => Promise.reject(new Error('not used by migrations')),
  withWriteLock: () => Promise.reject(new Error('not used by migrations')),
  durably: () => Promise.reject(new Error('not used by migrations')),
  readSnapshot: () => Promise.reject(new Error('not used by migrations')),
  isLockBusy: () => false,
  jsonText: () => {
    throw new Error('not used by migrations');
  },
  jsonNumber: () => {
    throw new Error('not used by migrations');
  },
};
const files = createTempStoreFiles();
afterAll(() => files.cleanup());

describeStoreConformance('SQLite', () => openSqliteStore(files.next()));

/** Runs `work` on a raw connection to `file`, as another program (or a hand edit) would. */
function withRawDatabase<T>(file: string, work: (database: Database.Database) => T): T {
  const database = new Database(file);
  try {
    return work(database);
  } finally {
    database.close();
  }
}

describe('an approval of a hold nothing waits on', () => {
  it('is stored as timed_out, saying since when no agent checked in; a deny is kept', async () => {
    const file = files.next();
    const store = await openSqliteStore(file);
    const gone = await createPendingHold(store);
    const denied = await createPendingHold(store);
    await store.checkInHoldWaiter(gone.hold.id, { pid: 1, host: 'h' });
    await store.close();
    // Both agents last checked in (or were created) a minute ago, on the store's clock.
    const old = new Date(Date.now() - 60_000).toISOString();
    withRawDatabase(file, (database) => {
      database.prepare('update holds set waiter_seen_at = ? where id = ?').run(old, gone.hold.id);
      database.prepare('update holds set created_at = ? where id = ?').run(old, denied.hold.id);
    });
    const reopened = await openSqliteStore(file);
    const approved = await reopened.decideHold(gone.hold.id, 'approved', 'ana', 'checked');
    expect(approved).toMatchObject({
      status: 'timed_out',
      decidedBy: 'ana',
      rationale: `No agent had checked in on this hold since ${old}: nothing waited to run the write, so it did not run (approved: checked).`,
    });
    expect(await reopened.decideHold(denied.hold.id, 'denied', 'ana', 'no')).toMatchObject({
      status: 'denied',
    });
    await reopened.close();
  });
});

describe('openSqliteStore', () => {
  it('creates the file (and its folder) in WAL mode with the schema migrated once', async () => {
    const file = path.join(path.dirname(files.next()), 'nested', 'deeper', 'store.db');
    await (await openSqliteStore(file)).close();
    await (await openSqliteStore(file)).close();
    withRawDatabase(file, (database) => {
      expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(database.prepare('select version, name from schema_migrations').all()).toEqual([
        { version: 1, name: 'sessions, evidence, actions, verdicts, holds' },
        { version: 2, name: 'holds: the last check-in of the waiting process' },
        { version: 3, name: 'who decided: kill source and citations, OS users, released writes' },
        { version: 4, name: 'rule sets pushed per team, versioned' },
        { version: 5, name: 'webhook deliveries and their attempts' },
        { version: 6, name: 'sessions bound to the agent key that opened them, with their secret' },
        { version: 7, name: 'evidence: the store sequence of the actions recorded before it' },
        { version: 9, name: 'holds: approval policy, approvals so far, edited input' },
        { version: 10, name: 'actions: indexes for history conditions' },
        { version: 11, name: 'audit chain: a hash-chained link per decision, per tenant and per team' },
        { version: 12, name: 'history fields: the filterable fields of actions and evidence, indexed' },
        {
          version: 13,
          name: 'several servers: instance leases, event feed, sign-in failures, webhook claims, judged by',
        },
        { version: 14, name: 'audit chain: a link per approval of a hold (quorum approvals, edited inputs)' },
        { version: 15, name: 'verdicts: one per action and kind (later duplicates set aside)' },
        { version: 16, name: 'slack: the messages posted for each hold' },
        { version: 17, name: 'history fields: covering indexes, and the numbers by time for sums' },
      ]);
      const tables = database
        .prepare(
          "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name",
        )
        .all();
      expect(tables).toEqual(
        [
          'actions',
          'audit_heads',
          'audit_links',
          'auth_failures',
          'evidence',
          'history_fields',
          'holds',
          'rule_sets',
          'schema_migrations',
          'server_events',
          'server_instances',
          'session_bindings',
          'sessions',
          'slack_hold_messages',
          'verdicts',
          'verdicts_set_aside',
          'webhook_deliveries',
        ].map((name) => ({
          name,
        })),
      );
    });
  });

  it('keeps everything across close and reopen', async () => {
    const file = files.next();
    const store = await openSqliteStore(file);
    const session = await store.createSession({ tenantId: 't', teamId: 'x', agentId: 'a' }, 30);
    await store.killSession(session.id, 'operator kill');
    await store.close();
    const reopened = await openSqliteStore(file);
    expect(await reopened.getSession(session.id)).toMatchObject({
      id: session.id,
      killReason: 'operator kill',
    });
    await reopened.close();
  });

  it('refuses a store written by a newer Novarch, saying what to do', async () => {
    const file = files.next();
    await (await openSqliteStore(file)).close();
    withRawDatabase(file, (database) => {
      database
        .prepare("insert into schema_migrations values (99, 'future', '2030-01-01T00:00:00.000Z')")
        .run();
    });
    await expect(openSqliteStore(file)).rejects.toThrow(
      'The store was written by a newer Novarch (schema version 99; this one knows up to 17). ' +
        'Upgrade Novarch, or point it at another store file.',
    );
  });

  it('migrates a store written before check-ins: its pending hold reads back, then takes them', async () => {
    const file = files.next();
    // A store as the first schema version left it, with a pending hold in it.
    const v1 = new Kysely<StoreTables>({ dialect: new SqliteDialect({ database: new Database(file) }) });
    const [first] = STORE_MIGRATIONS;
    if (first === undefined) throw new Error('no migrations');
    await first.up(v1, sqliteDialectForMigrations);
    await sql`create table schema_migrations (version integer primary key, name text not null, applied_at text not null)`.execute(
      v1,
    );
    await sql`insert into schema_migrations values (1, ${first.name}, '2026-03-01T09:00:00.000Z')`.execute(
      v1,
    );
    await sql`insert into sessions (id, tenant_id, team_id, agent_id, started_at, hold_wait_seconds)
      values ('ses_1', 't', 'x', 'a', '2026-03-01T09:00:00.000Z', 300)`.execute(v1);
    await sql`insert into actions (id, session_id, action_type, tool_name, context_json, created_at)
      values ('act_1', 'ses_1', 'refund', 'refund', '{"recordId":"r","summary":"s"}', '2026-03-01T09:00:01.000Z')`.execute(
      v1,
    );
    await sql`insert into holds (id, schema_version, action_id, session_id, status, created_at, deadline)
      values ('hold_1', 1, 'act_1', 'ses_1', 'pending', '2026-03-01T09:00:01.000Z', '2099-01-01T00:00:00.000Z')`.execute(
      v1,
    );
    await v1.destroy();

    const store = await openSqliteStore(file);
    const hold = await store.getHold('hold_1');
    expect(hold).toEqual({
      schemaVersion: 1,
      id: 'hold_1',
      actionId: 'act_1',
      sessionId: 'ses_1',
      status: 'pending',
      createdAt: '2026-03-01T09:00:01.000Z',
      deadline: '2099-01-01T00:00:00.000Z',
    });
    await store.checkInHoldWaiter('hold_1', { pid: 99, host: 'h' });
    expect((await store.getHold('hold_1'))?.waiter).toMatchObject({ pid: 99, host: 'h' });
    await store.close();
    withRawDatabase(file, (database) => {
      expect(database.prepare('select version from schema_migrations order by version').all()).toEqual([
        { version: 1 },
        { version: 2 },
        { version: 3 },
        { version: 4 },
        { version: 5 },
        { version: 6 },
        { version: 7 },
        { version: 9 },
        { version: 10 },
        { version: 11 },
        { version: 12 },
        { version: 13 },
        { version: 14 },
        { version: 15 },
        { version: 16 },
        { version: 17 },
      ]);
    });
    // Migration 11 chained the hold stored before it: verify covers it from then on.
    const reopened = await openSqliteStore(file);
    expect(await reopened.verifyAuditChains()).toEqual([
      { chain: 'tenant:t', links: 1, head: expect.objectContaining({ position: 1 }), problems: [] },
    ]);
    await reopened.close();
  });

  it('migration 7 orders evidence stored before it by its timestamps; a row without action_seq too', async () => {
    const file = files.next();
    const store = await openSqliteStore(file);
    const session = await store.createSession({ tenantId: 't', teamId: 'x', agentId: 'a' }, 60);
    const read = (finishedAt: string) =>
      store.recordEvidence({
        sessionId: session.id,
        toolName: 'lookup',
        input: { finishedAt },
        output: null,
        isError: false,
        startedAt: finishedAt,
        finishedAt,
      });
    const before = await read('2020-01-01T00:00:00.000Z');
    const action = await store.recordAction({
      sessionId: session.id,
      actionType: 'refund',
      toolName: 'refund',
      input: {},
      context: { recordId: 'r', summary: 's' },
    });
    await read('2099-01-01T00:00:00.000Z');
    await store.close();
    // As a store written before migration 7 holds them: no action_seq, only the agent's times.
    withRawDatabase(file, (database) => {
      database.prepare('update evidence set action_seq = null').run();
    });
    const unmigrated = await openSqliteStore(file);
    expect(await unmigrated.listEvidenceBefore(action.id)).toEqual([before]);
    await unmigrated.close();
    // A store at schema version 6: the column and its migration's row gone; opening migrates it.
    withRawDatabase(file, (database) => {
      database.prepare('alter table evidence drop column action_seq').run();
      database.prepare('delete from schema_migrations where version = 7').run();
    });
    await (await openSqliteStore(file)).close();
    withRawDatabase(file, (database) => {
      expect(database.prepare('select action_seq from evidence order by seq').all()).toEqual([
        { action_seq: 0 },
        { action_seq: 1 },
      ]);
    });
    const migrated = await openSqliteStore(file);
    expect(await migrated.listEvidenceBefore(action.id)).toEqual([before]);
    await migrated.close();
  });

  it('opens a store at this schema version while another process holds the write lock', async () => {
    const file = files.next();
    await (await openSqliteStore(file)).close();
    // Another process in the middle of a write: before, every open took the write lock to check
    // the migrations, so under many writers opens failed with "database is locked".
    const writer = new Database(file);
    writer.exec('begin immediate');
    try {
      const store = await openSqliteStore(file);
      expect(await store.listSessions()).toEqual([]);
      await store.close();
    } finally {
      writer.exec('rollback');
      writer.close();
    }
  });

  it('refuses a hold row with half a check-in as damaged', async () => {
    const file = files.next();
    const store = await openSqliteStore(file);
    const { hold } = await createPendingHold(store);
    withRawDatabase(file, (database) => {
      database
        .prepare("update holds set waiter_seen_at = '2026-03-01T09:00:01.000Z' where id = ?")
        .run(hold.id);
    });
    await expect(store.getHold(hold.id)).rejects.toThrow(
      'waiter_seen_at, waiter_pid and waiter_host are set together or not at all',
    );
    await store.close();
  });

  it('refuses a path it cannot open as a database', async () => {
    const folder = path.join(path.dirname(files.next()), 'a-folder');
    mkdirSync(folder);
    const opening = openSqliteStore(folder);
    await expect(opening).rejects.toBeInstanceOf(NovarchStoreError);
    await expect(opening).rejects.toThrow(`Cannot open the Novarch store at ${folder}:`);
  });

  it('reports damaged rows instead of returning them', async () => {
    const file = files.next();
    const store = await openSqliteStore(file);
    const { action, hold } = await createPendingHold(store);
    withRawDatabase(file, (database) => {
      database.prepare('update actions set context_json = \'{"summary": 3}\' where id = ?').run(action.id);
    });
    await expect(store.audit()).rejects.toThrow(
      `Stored context of action ${action.id} does not parse; the store is damaged:\n✖ Invalid input: expected string, received undefined\n  → at recordId`,
    );
    withRawDatabase(file, (database) => {
      database.prepare("update holds set status = 'maybe' where id = ?").run(hold.id);
    });
    await expect(store.getHold(hold.id)).rejects.toThrow(
      `Stored hold ${hold.id} (format 1) does not parse; the store is damaged`,
    );
    withRawDatabase(file, (database) => {
      database.prepare('update holds set schema_version = 2 where id = ?').run(hold.id);
    });
    await expect(store.getHold(hold.id)).rejects.toThrow(
      `Hold ${hold.id} was stored in hold format 2 by a newer Novarch; this one reads up to format 1.`,
    );
    await store.close();
  });

  it('two connections to one file: each sees the other, and the first decision wins', async () => {
    const file = files.next();
    const [agent, operator] = await Promise.all([openSqliteStore(file), openSqliteStore(file)]);
    const { hold } = await createPendingHold(agent);
    expect(await operator.listHolds({ status: 'pending' })).toEqual([hold]);
    const [byOperator, byAgent] = await Promise.all([
      operator.decideHold(hold.id, 'approved', 'operator'),
      agent.decideHold(hold.id, 'timed_out', 'gate'),
    ]);
    expect(byAgent).toEqual(byOperator);
    expect(await agent.getHold(hold.id)).toEqual(byOperator);
    await Promise.all([agent.close(), operator.close()]);
  });
});

describe('migration 12 (history fields) on SQLite', () => {
  it('a store written before it upgrades, indexes its actions and evidence, and answers the same', async () => {
    const file = files.next();
    await checkHistoryMigration({
      open: () => openSqliteStore(file),
      forgetMigration12: async () =>
        withRawDatabase(file, (database) => {
          database.exec('drop table history_fields; delete from schema_migrations where version = 12');
        }),
      indexRows: async () =>
        withRawDatabase(file, (database) => {
          const row: unknown = database.prepare('select count(*) as n from history_fields').get();
          return typeof row === 'object' && row !== null && 'n' in row ? Number(row.n) : -1;
        }),
    });
  });
});

describe('migration 17 (covering history indexes) on SQLite', () => {
  const indexNames = (file: string) =>
    withRawDatabase(file, (database) =>
      database
        .prepare(
          "select name from sqlite_master where type = 'index' and tbl_name = 'history_fields' order by name",
        )
        .all()
        .map((row) => (typeof row === 'object' && row !== null && 'name' in row ? String(row.name) : '')),
    );

  it('a store written before it upgrades to the covering indexes and answers the same', async () => {
    const file = files.next();
    await checkCoveringIndexMigration({
      open: () => openSqliteStore(file),
      forgetMigration17: async (statements) =>
        withRawDatabase(file, (database) => {
          for (const statement of statements) database.exec(statement);
        }),
      indexNames: async () => indexNames(file),
    });
  });

  it('answers every shape of history query from one index alone, never reading history_fields rows', async () => {
    const file = files.next();
    const store = await openSqliteStore(file);
    const judged = await fillHistory(store);
    await store.close();
    const db = new Kysely<StoreTables>({ dialect: new SqliteDialect({ database: new Database(file) }) });
    try {
      const plans = await historyQueryPlans(db, sqliteStoreDialect, judged, async (query) =>
        (await db.executeQuery<{ detail: string }>(prefixed('explain query plan', query))).rows
          .map((row) => row.detail)
          .join('\n'),
      );
      for (const [name, { index }] of Object.entries(PLANNED_QUERIES)) {
        const reads = plans[name]?.split('\n').filter((line) => / f\b/.test(line)) ?? [];
        // The first branch (the filter's or the summed field's rows) uses the expected index;
        // every branch reads one index only (the marker rows' branch, when any, the window index).
        expect({ name, first: reads[0] }).toEqual({
          name,
          first: expect.stringMatching(new RegExp(`^SEARCH f USING COVERING INDEX ${index} `)),
        });
        for (const line of reads)
          expect({ name, line }).toEqual({
            name,
            line: expect.stringMatching(/^SEARCH f USING COVERING INDEX history_fields_\w+ \(/),
          });
      }
    } finally {
      await db.destroy();
    }
  });
});
