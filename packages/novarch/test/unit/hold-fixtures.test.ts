import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { HOLD_SCHEMA_VERSION } from '../../src/model/index.js';
import { openSqliteStore } from '../../src/store/open-sqlite-store.js';
import { parseHoldRow } from '../../src/store/parse-hold-row.js';
import { createTempStoreFiles } from '../store/temp-store-file.js';

// Every hold format ever shipped keeps fixtures of stored rows; each must still load.
const FIXTURES = fileURLToPath(new URL('../fixtures/holds/', import.meta.url));

const versions = readdirSync(FIXTURES).sort();
const fixtures = versions.flatMap((version) =>
  readdirSync(`${FIXTURES}${version}`)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const row: unknown = JSON.parse(readFileSync(`${FIXTURES}${version}/${name}`, 'utf8'));
      return { name: `${version}/${name}`, row };
    }),
);

const files = createTempStoreFiles();
afterAll(() => files.cleanup());

describe('stored hold fixtures', () => {
  it('there is a fixture folder for every hold format up to the current one', () => {
    const expected = Array.from({ length: HOLD_SCHEMA_VERSION }, (_, index) => `v${index + 1}`);
    expect(versions).toEqual(expected);
    for (const version of expected) {
      expect(fixtures.filter((fixture) => fixture.name.startsWith(`${version}/`)).length).toBeGreaterThan(0);
    }
  });

  it.each(fixtures)('$name loads as a current hold record', ({ row }) => {
    const hold = parseHoldRow(row);
    expect(hold.schemaVersion).toBe(HOLD_SCHEMA_VERSION);
    expect(hold).toMatchObject({ id: expect.stringMatching(/^hold_/), status: expect.any(String) });
    if (hold.status === 'pending') expect(hold).not.toHaveProperty('decidedAt');
    else expect(hold).toMatchObject({ decidedAt: expect.any(String), decidedBy: expect.any(String) });
  });

  it('v1/approved.json maps every column', () => {
    const fixture = fixtures.find((candidate) => candidate.name === 'v1/approved.json');
    expect(parseHoldRow(fixture?.row)).toEqual({
      schemaVersion: 1,
      id: 'hold_0d8e7f6a-5b4c-4d3e-8f2a-1b0c9d8e7f6a',
      actionId: 'act_7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918',
      sessionId: 'ses_1b2c3d4e-5f60-4718-9a0b-c1d2e3f40516',
      status: 'approved',
      createdAt: '2026-05-01T09:10:00.000Z',
      deadline: '2026-05-01T09:15:00.000Z',
      decidedAt: '2026-05-01T09:11:42.517Z',
      decidedBy: 'operator:élodie',
      rationale: 'Customer verified by phone ✓',
    });
  });

  it('v1/pending.json has no decision fields at all', () => {
    const fixture = fixtures.find((candidate) => candidate.name === 'v1/pending.json');
    expect(Object.keys(parseHoldRow(fixture?.row)).sort()).toEqual(
      ['actionId', 'createdAt', 'deadline', 'id', 'schemaVersion', 'sessionId', 'status'].sort(),
    );
  });

  it('v1/pending-with-waiter.json maps the last check-in (the waiter columns came with store migration 2)', () => {
    const fixture = fixtures.find((candidate) => candidate.name === 'v1/pending-with-waiter.json');
    expect(parseHoldRow(fixture?.row)).toEqual({
      schemaVersion: 1,
      id: 'hold_2b7c1e3f-4d5a-4e6b-8c9d-0e1f2a3b4c5d',
      actionId: 'act_5d4c3b2a-1908-4f7e-a6d5-c4b3a2918070',
      sessionId: 'ses_1b2c3d4e-5f60-4718-9a0b-c1d2e3f40516',
      status: 'pending',
      createdAt: '2026-05-01T09:20:00.000Z',
      deadline: '2026-05-01T09:25:00.000Z',
      waiter: { seenAt: '2026-05-01T09:20:42.000Z', pid: 48213, host: 'agent-7.example' },
    });
  });

  it('v1/approved-by-quorum-with-edit.json maps the policy, approvals and edit (store migration 9)', () => {
    const fixture = fixtures.find((candidate) => candidate.name === 'v1/approved-by-quorum-with-edit.json');
    expect(parseHoldRow(fixture?.row)).toMatchObject({
      status: 'approved',
      decidedBy: 'bo',
      policy: { approvals: 2, approverGroups: [{ ruleId: 'TEAM-3', groups: ['finance'] }] },
      approvals: [
        { operator: 'ana', at: '2026-05-01T09:31:00.000Z', rationale: 'capped at 400', osUser: 'ops' },
        { operator: 'bo', at: '2026-05-01T09:32:10.000Z', rationale: 'agreed', osUser: 'ops' },
      ],
      edit: { input: { order_id: 'A-1', amount: 400 }, by: 'ana' },
    });
  });

  it('a damaged approvals list is an error naming the hold, never read as no approvals', () => {
    const fixture = fixtures.find((candidate) => candidate.name === 'v1/approved-by-quorum-with-edit.json');
    const row = { ...(fixture?.row as Record<string, unknown>), approvals_json: '[{"operator":""}]' };
    expect(() => parseHoldRow(row)).toThrow(
      /^Hold hold_4f3e2d1c-0b9a-4887-a6f5-e4d3c2b1a099 has an unreadable approvals list: .*; the store is damaged\.$/s,
    );
  });

  it('every fixture row fits the current table and reads back through the store', async () => {
    const file = files.next();
    await (await openSqliteStore(file)).close();
    const database = new Database(file);
    try {
      // The fixtures' sessions and actions are not stored, so this raw connection skips the check.
      database.pragma('foreign_keys = OFF');
      for (const { row } of fixtures) {
        if (typeof row !== 'object' || row === null) throw new Error('a fixture is not an object');
        const columns = Object.keys(row);
        const placeholders = columns.map((column) => `@${column}`).join(', ');
        database.prepare(`insert into holds (${columns.join(', ')}) values (${placeholders})`).run(row);
      }
    } finally {
      database.close();
    }
    const store = await openSqliteStore(file);
    expect(await store.listHolds()).toEqual(fixtures.map(({ row }) => parseHoldRow(row)));
    await store.close();
  });

  it('a row without a schema_version, or with a broken one, is refused with a clear message', () => {
    expect(() => parseHoldRow({ id: 'hold_x' })).toThrow(/A stored hold has no valid schema_version/);
    expect(() => parseHoldRow({ schema_version: 0, id: 'hold_x' })).toThrow(
      'Hold hold_x has an unknown hold format 0; the store is damaged.',
    );
  });
});
