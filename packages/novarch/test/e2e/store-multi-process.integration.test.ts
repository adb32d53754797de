import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openSqliteStore } from '../../src/index.js';
import { STORE_MIGRATIONS } from '../../src/store/store-migrations.js';
import { createTempStoreFiles } from '../store/temp-store-file.js';
import { spawnStoreChild } from './support/spawn-store-child.js';

// Several processes share one SQLite store file: an agent waiting on a hold, an operator deciding
// it from another process, processes killed mid-run. Each child is a real Node process.

const files = createTempStoreFiles();
afterAll(() => files.cleanup());

const holdLine = z.object({ hold: z.object({ id: z.string(), status: z.string(), decidedBy: z.string() }) });
const writtenLine = z.object({
  session: z.object({ id: z.string() }),
  action: z.object({ id: z.string() }),
  verdict: z.object({ id: z.string() }),
  hold: z.object({ id: z.string() }),
});

describe('the SQLite store shared by several processes', () => {
  it('an operator process approves a hold another process is waiting on', async () => {
    const file = files.next();
    // Both start on a file that does not exist yet: their opens (and migrations) race too.
    const agent = spawnStoreChild('hold-and-wait', file);
    const operator = spawnStoreChild('approve-first-pending', file);
    const held = z.object({ holdId: z.string() }).parse(await agent.next('held'));
    const approved = holdLine.parse(await operator.next('approved'));
    const decided = holdLine.parse(await agent.next('decided'));
    expect(approved.hold).toMatchObject({ id: held.holdId, status: 'approved', decidedBy: 'operator:e2e' });
    expect(decided.hold).toEqual(approved.hold);
    expect(await agent.exited).toMatchObject({ code: 0 });
    expect(await operator.exited).toMatchObject({ code: 0 });
  });

  it('rows written before a SIGKILL are all there when the file is reopened', async () => {
    const file = files.next();
    const child = spawnStoreChild('record-and-hang', file);
    const written = writtenLine.parse(await child.next('written'));
    // Killed the moment recordVerdict and createHold have resolved: no close(), no checkpoint.
    child.process.kill('SIGKILL');
    expect(await child.exited).toMatchObject({ signal: 'SIGKILL' });

    const store = await openSqliteStore(file);
    const [entry] = await store.audit({ sessionId: written.session.id });
    expect(entry?.action).toMatchObject({
      id: written.action.id,
      input: { customerId: 'c-7', amount: 900, note: 'Erstattung über 500 € 🧾' },
    });
    expect(entry?.verdict).toMatchObject({ id: written.verdict.id, verdict: { kind: 'hold' } });
    expect(entry?.hold).toMatchObject({ id: written.hold.id, status: 'pending' });
    expect(await store.getHold(written.hold.id)).toEqual(entry?.hold);
    await store.close();
  });

  it('three processes opening a new file at once migrate it exactly once', async () => {
    const file = files.next();
    const children = Array.from({ length: 3 }, () => spawnStoreChild('create-session', file));
    const exits = await Promise.all(children.map((child) => child.exited));
    for (const exit of exits) expect(exit).toMatchObject({ code: 0 });
    const database = new Database(file, { readonly: true });
    try {
      expect(database.prepare('select version from schema_migrations order by version').all()).toEqual(
        STORE_MIGRATIONS.map((migration) => ({ version: migration.version })),
      );
      expect(database.prepare('select count(*) as sessions from sessions').get()).toEqual({ sessions: 3 });
    } finally {
      database.close();
    }
  });

  it('four processes deciding at once on one tenant keep one valid audit chain', async () => {
    const file = files.next();
    const perChild = 6;
    const children = Array.from({ length: 4 }, () =>
      spawnStoreChild('record-decisions', file, String(perChild)),
    );
    const exits = await Promise.all(children.map((child) => child.exited));
    for (const exit of exits) expect(exit).toMatchObject({ code: 0 });
    const store = await openSqliteStore(file);
    // Each decision: a hold verdict, the hold, its decision; a kill on every fifth (2 per child).
    const expected = 4 * (perChild * 3 + 2);
    expect(await store.verifyAuditChains()).toEqual([
      {
        chain: 'tenant:acme',
        links: expected,
        head: expect.objectContaining({ position: expected }),
        problems: [],
      },
    ]);
    await store.close();
  });
});
