import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, type MigrationProvider, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { hashSecret } from '../../../src/identity/identity-secrets.js';
import { IdentityStore } from '../../../src/identity/identity-store.js';
import type { IdentityTables } from '../../../src/identity/identity-tables.js';
import { IDENTITY_MIGRATIONS, migrateIdentity } from '../../../src/identity/migrate-identity.js';
import { usePostgresServer } from '../../store/postgres-server.js';

// The identity store on SQLite and PostgreSQL: credentials found by their id with one
// primary-key query (cost independent of how many there are), and the console session rows.

const postgres = usePostgresServer();

interface Opened {
  identities: IdentityStore;
  db: Kysely<IdentityTables>;
  /** Every statement run, in order. */
  queries: string[];
}

type Backend = 'sqlite' | 'postgres';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A Kysely on a fresh database of the backend (not migrated), logging its statements. */
async function freshDatabase(backend: Backend): Promise<{ db: Kysely<IdentityTables>; queries: string[] }> {
  const queries: string[] = [];
  const log = (event: { query: { sql: string } }) => {
    queries.push(event.query.sql);
  };
  let db: Kysely<IdentityTables>;
  if (backend === 'sqlite') {
    const folder = mkdtempSync(path.join(tmpdir(), 'novarch-identity-'));
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
    db = new Kysely<IdentityTables>({
      dialect: new SqliteDialect({ database: new Database(path.join(folder, 'novarch.db')) }),
      log,
    });
  } else {
    const url = await postgres.freshDatabase();
    db = new Kysely<IdentityTables>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }),
      log,
    });
  }
  return { db, queries };
}

async function open(backend: Backend): Promise<Opened> {
  const { db, queries } = await freshDatabase(backend);
  await migrateIdentity(db);
  const identities = new IdentityStore(db, () => db.destroy());
  cleanups.push(() => identities.close());
  queries.length = 0;
  return { identities, db, queries };
}

describe.each(['sqlite', 'postgres'] as const)('the identity store on %s', (backend) => {
  it('finds an operator token and an agent key by id, revoked or not; an unknown id is undefined', async () => {
    const { identities } = await open(backend);
    const ana = await identities.createOperatorToken({
      name: 'ana',
      role: 'admin',
      grants: [{ tenantId: 'acme', teamId: 'cs-ops' }],
    });
    const key = await identities.createAgentKey({ tenantId: 'acme', name: 'bot' });
    expect(await identities.findOperatorToken(ana.info.id)).toEqual(ana.info);
    expect(await identities.findAgentKey(key.info.id)).toEqual(key.info);
    expect(await identities.findOperatorToken('nvo_000000000000')).toBeUndefined();
    expect(await identities.findAgentKey(ana.info.id)).toBeUndefined();

    const revoked = await identities.revokeOperatorToken(ana.info.id);
    expect(revoked?.revokedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await identities.findOperatorToken(ana.info.id)).toEqual(revoked);
    expect((await identities.revokeAgentKey(key.info.id))?.revokedAt).toMatch(/^\d{4}-/);
    expect(await identities.revokeOperatorToken('nvo_000000000000')).toBeUndefined();
  });

  it('looks a credential up with one primary-key query however many there are', async () => {
    const { identities, queries } = await open(backend);
    const tokens = [];
    for (let index = 0; index < 60; index++)
      tokens.push(
        await identities.createOperatorToken({
          name: `op-${index}`,
          role: 'operator',
          grants: [{ tenantId: 'acme' }],
        }),
      );
    const key = await identities.createAgentKey({ tenantId: 'acme', name: 'bot' });
    const last = tokens.at(-1);
    if (last === undefined) throw new Error('no token');
    const byId = /^select \* from "novarch_operator_tokens" where "id" = (\?|\$1)$/;

    queries.length = 0;
    expect((await identities.findOperatorToken(last.info.id))?.name).toBe('op-59');
    expect(queries).toHaveLength(1);
    expect(queries[0]).toMatch(byId);

    queries.length = 0;
    expect(await identities.authenticate(last.secret)).toMatchObject({ kind: 'operator', name: 'op-59' });
    expect(queries).toHaveLength(1);
    expect(queries[0]).toMatch(byId);

    queries.length = 0;
    expect(await identities.authenticate(key.secret)).toMatchObject({ kind: 'agent', tenantId: 'acme' });
    expect(queries).toEqual([
      expect.stringMatching(/^select \* from "novarch_agent_keys" where "id" = (\?|\$1)$/),
    ]);

    queries.length = 0;
    const unknown = `nvo_ffffffffffff_${'A'.repeat(43)}`;
    expect(await identities.authenticate(unknown)).toBeUndefined();
    expect(queries).toHaveLength(1);
  });

  it('authenticates only the exact secret of an active credential', async () => {
    const { identities, queries } = await open(backend);
    const ana = await identities.createOperatorToken({
      name: 'ana',
      role: 'operator',
      grants: [{ tenantId: 'acme' }],
    });
    const key = await identities.createAgentKey({ tenantId: 'acme', name: 'bot' });
    expect(await identities.authenticate(ana.secret)).toEqual({
      kind: 'operator',
      id: ana.info.id,
      name: 'ana',
      role: 'operator',
      grants: [{ tenantId: 'acme' }],
    });
    expect(await identities.authenticate(key.secret)).toEqual({
      kind: 'agent',
      id: key.info.id,
      name: 'bot',
      tenantId: 'acme',
    });
    // The right id with another secret, a secret under another credential's id, and junk.
    const secretOf = (text: string) => text.slice(text.indexOf('_', 4) + 1);
    const otherSecret = secretOf(ana.secret) === 'A'.repeat(43) ? 'B'.repeat(43) : 'A'.repeat(43);
    expect(await identities.authenticate(`${ana.info.id}_${otherSecret}`)).toBeUndefined();
    expect(await identities.authenticate(`${key.info.id}_${secretOf(ana.secret)}`)).toBeUndefined();
    queries.length = 0;
    for (const junk of ['', 'nvo_', ana.info.id, `${ana.secret}x`, ` ${ana.secret}`, 'nvx_000000000000_x'])
      expect(await identities.authenticate(junk)).toBeUndefined();
    expect(queries).toEqual([]); // malformed credentials never reach the database
    await identities.revokeOperatorToken(ana.info.id);
    await identities.revokeAgentKey(key.info.id);
    expect(await identities.authenticate(ana.secret)).toBeUndefined();
    expect(await identities.authenticate(key.secret)).toBeUndefined();
  });

  it('keeps console session rows: found by id hash, touched forward only, deleted when ended, revoked with their token', async () => {
    const { identities } = await open(backend);
    const ana = await identities.createOperatorToken({
      name: 'ana',
      role: 'operator',
      grants: [{ tenantId: 'acme' }],
    });
    const bob = await identities.createOperatorToken({
      name: 'bob',
      role: 'operator',
      grants: [{ tenantId: 'acme' }],
    });
    const t0 = Date.parse('2026-12-01T10:00:00.000Z');
    const row = (idHash: string, operatorId: string, createdAt: number) => ({
      idHash,
      operatorId,
      operator: JSON.stringify({ id: operatorId }),
      createdAt,
      lastSeenAt: createdAt,
    });
    await identities.insertConsoleSession(row('a'.repeat(64), ana.info.id, t0));
    await identities.insertConsoleSession(row('b'.repeat(64), bob.info.id, t0 + 1000));
    await identities.insertConsoleSession(row('c'.repeat(64), ana.info.id, t0 + 2000));
    expect(await identities.findConsoleSession('a'.repeat(64))).toEqual({
      ...row('a'.repeat(64), ana.info.id, t0),
      revoked: false,
    });
    expect(await identities.findConsoleSession('d'.repeat(64))).toBeUndefined();

    await identities.touchConsoleSession('a'.repeat(64), t0 + 60_000);
    await identities.touchConsoleSession('a'.repeat(64), t0 + 30_000); // an older activity never moves it back
    expect((await identities.findConsoleSession('a'.repeat(64)))?.lastSeenAt).toBe(t0 + 60_000);

    await identities.revokeOperatorToken(ana.info.id);
    expect((await identities.findConsoleSession('a'.repeat(64)))?.revoked).toBe(true);
    expect((await identities.findConsoleSession('c'.repeat(64)))?.revoked).toBe(true);
    expect((await identities.findConsoleSession('b'.repeat(64)))?.revoked).toBe(false);

    // Idle since before t0 + 1500 (b: last seen t0 + 1000) or created before t0 + 500 (a).
    await identities.deleteEndedConsoleSessions({ lastSeenBefore: t0 + 1500, createdBefore: t0 + 500 });
    expect(await identities.findConsoleSession('a'.repeat(64))).toBeUndefined();
    expect(await identities.findConsoleSession('b'.repeat(64))).toBeUndefined();
    expect(await identities.findConsoleSession('c'.repeat(64))).toBeDefined();
    await identities.deleteConsoleSession('c'.repeat(64));
    expect(await identities.findConsoleSession('c'.repeat(64))).toBeUndefined();
  });

  it('upgrades identity tables made before console sessions: tokens kept, the sessions table added', async () => {
    const { db } = await freshDatabase(backend);
    const [first] = Object.keys(IDENTITY_MIGRATIONS).sort();
    const firstOnly: MigrationProvider = {
      getMigrations: async () => ({
        [first ?? '']: IDENTITY_MIGRATIONS[first ?? ''] ?? { up: async () => {} },
      }),
    };
    const migrator = new Migrator({
      db,
      provider: firstOnly,
      migrationTableName: 'novarch_identity_migrations',
      migrationLockTableName: 'novarch_identity_migrations_lock',
    });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const old = new IdentityStore(db, async () => {});
    const ana = await old.createOperatorToken({
      name: 'ana',
      role: 'operator',
      grants: [{ tenantId: 'acme' }],
    });
    await expect(old.findConsoleSession('a'.repeat(64))).rejects.toThrow(/novarch_console_sessions/);

    await migrateIdentity(db);
    await migrateIdentity(db); // idempotent
    const upgraded = new IdentityStore(db, () => db.destroy());
    cleanups.push(() => upgraded.close());
    expect(await upgraded.authenticate(ana.secret)).toMatchObject({ kind: 'operator', name: 'ana' });
    expect(await upgraded.findConsoleSession('a'.repeat(64))).toBeUndefined();
    const applied = await sql<{
      name: string;
    }>`select name from novarch_identity_migrations order by name`.execute(db);
    expect(applied.rows.map((migration) => migration.name)).toEqual([
      '001_agent_keys_and_operator_tokens',
      '002_console_sessions',
      '003_agent_key_bindings',
      '004_operator_duties',
    ]);
  });

  it('upgrades agent keys made before key bindings: they keep working, bound to no agent or team', async () => {
    const { db } = await freshDatabase(backend);
    const before = Object.keys(IDENTITY_MIGRATIONS)
      .sort()
      .filter((name) => name < '003');
    const migrator = new Migrator({
      db,
      provider: {
        getMigrations: async () =>
          Object.fromEntries(
            before.map((name) => [name, IDENTITY_MIGRATIONS[name] ?? { up: async () => {} }]),
          ),
      },
      migrationTableName: 'novarch_identity_migrations',
      migrationLockTableName: 'novarch_identity_migrations_lock',
    });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    // A key row as Novarch wrote it before migration 003 (the fixture of the old format).
    const secret = `nva_0123456789ab_${'A'.repeat(43)}`;
    await sql`insert into novarch_agent_keys (id, tenant_id, name, secret_hash, created_at, revoked_at)
      values ('nva_0123456789ab', 'acme', 'old-bot', ${hashSecret('A'.repeat(43))}, '2026-01-01T00:00:00.000Z', null)`.execute(
      db,
    );
    await migrateIdentity(db);
    const upgraded = new IdentityStore(db, () => db.destroy());
    cleanups.push(() => upgraded.close());
    const principal = await upgraded.authenticate(secret);
    expect(principal).toEqual({ kind: 'agent', id: 'nva_0123456789ab', name: 'old-bot', tenantId: 'acme' });
    expect(await upgraded.listAgentKeys()).toEqual([
      { id: 'nva_0123456789ab', tenantId: 'acme', name: 'old-bot', createdAt: '2026-01-01T00:00:00.000Z' },
    ]);
    const bound = await upgraded.createAgentKey({
      tenantId: 'acme',
      name: 'new-bot',
      agentId: 'cs-bot',
      teamIds: ['cs-ops'],
    });
    expect(await upgraded.authenticate(bound.secret)).toMatchObject({
      agentId: 'cs-bot',
      teamIds: ['cs-ops'],
    });
    await expect(
      upgraded.createAgentKey({ tenantId: 'acme', name: 'x', teamIds: ['globex/cs-ops'] }),
    ).rejects.toThrow(
      'team "globex/cs-ops" is not valid: use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit',
    );
  });
});

describe('the identity store on sqlite (query plans)', () => {
  it('finds credentials and console sessions through their primary-key index, never a table scan', async () => {
    const { db } = await open('sqlite');
    for (const [table, column] of [
      ['novarch_operator_tokens', 'id'],
      ['novarch_agent_keys', 'id'],
      ['novarch_console_sessions', 'id_hash'],
    ] as const) {
      const plan = await sql<{
        detail: string;
      }>`explain query plan select * from ${sql.table(table)} where ${sql.ref(column)} = ${'x'}`.execute(db);
      expect(plan.rows.map((row) => row.detail).join('\n')).toMatch(
        new RegExp(`^SEARCH ${table} USING INDEX .*\\(${column}=\\?\\)$`),
      );
    }
  });
});
