import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/index.js';
import { recordRefund, scope } from '../../store/conformance-context.js';
import { createTempStoreFiles } from '../../store/temp-store-file.js';

// Migration 14 chains the approvals a store held before it (migration 11 chained decisions only).

const files = createTempStoreFiles();
afterAll(() => files.cleanup());

it('migration 14 chains the approvals stored before it, so verify covers them from then on', async () => {
  const file = files.next();
  let store = await openSqliteStore(file);
  const session = await store.createSession(scope(), 300);
  const action = await recordRefund(store, session, 900);
  const hold = await store.createHold(action.id, session.id, new Date(Date.now() + 300_000), {
    approvals: 2,
    approverGroups: [],
  });
  await store.decideHold(hold.id, 'approved', 'ana', 'fine', { input: { amount: 400 } });
  await store.close();
  // The store as migration 13 left it: the approval stored, no link for it.
  const database = new Database(file);
  database.exec(`delete from audit_links where kind = 'hold_approval'`);
  database.exec(
    `update audit_heads set (position, hash) = (select position, hash from audit_links where chain = 'tenant:acme' order by position desc limit 1) where chain = 'tenant:acme'`,
  );
  database.exec('delete from schema_migrations where version = 14');
  database.close();
  store = await openSqliteStore(file);
  try {
    const chain = await store.readAuditChain('tenant:acme');
    expect(chain.links.map((link) => [link.position, link.kind, link.recordId])).toEqual([
      [1, 'hold', hold.id],
      [2, 'hold_approval', `${hold.id}#1`],
    ]);
    expect(chain.records[1]).toMatchObject({ edit: { by: 'ana', input: '{"amount":400}' } });
    expect((await store.verifyAuditChains())[0]?.problems).toEqual([]);
  } finally {
    await store.close();
  }
});
