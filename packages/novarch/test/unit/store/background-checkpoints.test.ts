import { statSync } from 'node:fs';
import { waitUntil } from '@holodeck/testkit';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/index.js';
import { startBackgroundCheckpoints } from '../../../src/store/background-checkpoints.js';
import { createSqliteStoreDialect } from '../../../src/store/open-sqlite-store.js';
import { createTempStoreFiles } from '../../store/temp-store-file.js';

// Issue 14 "Speed": WAL checkpoints off the agent's path. The store's connection no longer
// checkpoints in a commit (a read's evidence insert used to pay ~1000 page copies and two fsyncs
// every ~200 reads); a worker thread with its own connection does it beside the event loop.
// That the worker lets a program exit: test/e2e/store-close-exit.e2e.test.ts.

const files = createTempStoreFiles();
afterAll(() => files.cleanup());
const scope = { tenantId: 'acme', teamId: 'cs-ops', agentId: 'bot' };
const now = () => new Date().toISOString();

/** Writes `count` evidence rows of ~4 KB: about one WAL page each. */
async function writeEvidence(store: Awaited<ReturnType<typeof openSqliteStore>>, count: number) {
  const session = await store.createSession(scope, 5);
  for (let index = 0; index < count; index++)
    await store.recordEvidence({
      sessionId: session.id,
      toolName: 'lookup',
      input: { index },
      output: 'x'.repeat(4_000),
      isError: false,
      startedAt: now(),
      finishedAt: now(),
    });
  return session;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('WAL checkpoints', () => {
  /**
   * Proves the connection's own commits stop checkpointing (the database file stays as it was
   * through 1500 pages of WAL, past SQLite's automatic threshold of 1000) while the worker waits,
   * that the worker checkpoints at its interval, and that stopping it hands checkpoints back to
   * SQLite.
   */
  it('takes checkpoints off the connection and runs them in the worker', async () => {
    const file = files.next();
    const database = new Database(file);
    database.pragma('journal_mode = WAL');
    database.exec('create table pages (body text)');
    const insert = database.prepare('insert into pages (body) values (?)');
    const before = statSync(file).size;
    const idle = startBackgroundCheckpoints(database, file, 60_000);
    expect(database.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    for (let index = 0; index < 1_500; index++) insert.run('x'.repeat(4_000));
    expect(statSync(file).size).toBe(before);
    await idle.stop();
    expect(database.pragma('wal_autocheckpoint', { simple: true })).toBe(0);

    const busy = startBackgroundCheckpoints(database, file, 50);
    // A checkpoint copies pages while the file grows: wait for the whole WAL, not the first page.
    let waited = 0;
    while (statSync(file).size <= 1_500 * 4_000 && waited < 10_000) {
      await sleep(50);
      waited += 50;
    }
    expect(statSync(file).size).toBeGreaterThan(1_500 * 4_000);
    await busy.stop();
    database.close();
  });

  /** Proves a store opened with the default checkpoints in the background keeps every row readable. */
  it('stores and reads as before with background checkpoints', async () => {
    const file = files.next();
    const store = await openSqliteStore(file);
    const session = await writeEvidence(store, 1_200);
    expect(await store.listEvidence(session.id)).toHaveLength(1_200);
    await store.close();
    const reopened = await openSqliteStore(file, { checkpoints: 'automatic' });
    expect(await reopened.listEvidence(session.id)).toHaveLength(1_200);
    await reopened.close();
  });

  /** Proves `checkpoints: 'automatic'` keeps SQLite's own checkpoints (the operator CLI's choice). */
  it("keeps SQLite's automatic checkpoints on request", async () => {
    const file = files.next();
    const store = await openSqliteStore(file, { checkpoints: 'automatic' });
    const before = statSync(file).size;
    await writeEvidence(store, 1_100);
    // The commit that took the WAL past 1000 pages checkpointed it, at once.
    expect(statSync(file).size).toBeGreaterThan(before);
    await store.close();
    await expect(openSqliteStore(file, { checkpoints: 'never' as 'automatic' })).rejects.toThrow(
      'checkpoints must be "background" or "automatic"; got "never".',
    );
  });

  /**
   * Proves the worker fsyncs the WAL when asked (after a commit made without an fsync), so that a
   * verdict's durable commit waits for its own pages only; requests in a burst coalesce.
   */
  it('flushes the WAL in the worker when asked, coalescing a burst', async () => {
    const file = files.next();
    const database = new Database(file);
    database.pragma('journal_mode = WAL');
    database.exec('create table pages (body text)');
    const insert = database.prepare('insert into pages (body) values (?)');
    let flushes = 0;
    const checkpoints = startBackgroundCheckpoints(database, file, 60_000, {
      onFlushed: () => {
        flushes += 1;
      },
    });
    for (let index = 0; index < 20; index++) {
      insert.run('x'.repeat(4_000));
      checkpoints.flushSoon();
    }
    await waitUntil(() => flushes > 0, { timeoutMs: 10_000, what: 'the worker to flush the WAL' });
    expect(flushes).toBeLessThanOrEqual(20);
    await checkpoints.stop();
    // Stopped: a late request is ignored, not an error.
    checkpoints.flushSoon();
    database.close();
  });

  /** Proves the SQLite dialect asks for a flush after a commit made without an fsync only. */
  it('asks for a flush after each normal commit, not after a durable one or a rollback', async () => {
    const file = files.next();
    const database = new Database(file);
    database.pragma('journal_mode = WAL');
    database.exec('create table pages (body text)');
    let requests = 0;
    const dialect = createSqliteStoreDialect(() => {
      requests += 1;
    });
    const db = new Kysely<{ pages: { body: string } }>({ dialect: new SqliteDialect({ database }) });
    const insert = (body: string) => (tx: Kysely<{ pages: { body: string } }>) =>
      tx.insertInto('pages').values({ body }).execute();
    await dialect.transaction(db as never, insert('normal') as never);
    expect(requests).toBe(1);
    await dialect.transaction(db as never, insert('durable') as never, { durable: true });
    expect(requests).toBe(1);
    await expect(
      dialect.transaction(db as never, async () => {
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(requests).toBe(1);
    expect(database.prepare('select count(*) as n from pages').get()).toEqual({ n: 2 });
    await db.destroy();
  });
});
