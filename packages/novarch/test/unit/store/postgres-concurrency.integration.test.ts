import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { type HoldStatus, type NovarchStore, openPostgresStore } from '../../../src/index.js';
import { createPendingHold, recordRefund, scope } from '../../store/conformance-context.js';
import { usePostgresServer } from '../../store/postgres-server.js';

// Several store instances (each its own pool of connections, as several servers would have) on
// one real PostgreSQL database.
const postgres = usePostgresServer();
const opened: NovarchStore[] = [];
const clients: pg.Client[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
  await Promise.all(clients.splice(0).map((client) => client.end()));
});

async function storesOn(url: string, count: number, options = {}): Promise<NovarchStore[]> {
  const stores = await Promise.all(Array.from({ length: count }, () => openPostgresStore(url, options)));
  opened.push(...stores);
  return stores;
}

/** A raw connection to `url`, as another program would hold one. */
async function rawClient(url: string): Promise<pg.Client> {
  const client = new pg.Client(url);
  await client.connect();
  clients.push(client);
  return client;
}

describe('PostgreSQL store across connections', () => {
  it('two store instances racing to decide one hold: exactly one decision wins, both see it', async () => {
    const url = await postgres.freshDatabase();
    const [alpha, beta] = await storesOn(url, 2);
    if (alpha === undefined || beta === undefined) throw new Error('two stores expected');
    for (let round = 0; round < 10; round++) {
      const { hold } = await createPendingHold(alpha);
      const statuses: Exclude<HoldStatus, 'pending'>[] = ['approved', 'denied'];
      const results = await Promise.all(
        [alpha, beta].flatMap((store, index) =>
          statuses.map((status) => store.decideHold(hold.id, status, `operator-${index}-${status}`)),
        ),
      );
      const stored = await beta.getHold(hold.id);
      expect(stored?.status).not.toBe('pending');
      for (const result of results) expect(result).toEqual(stored);
    }
  });

  it('many concurrent writers on four instances lose nothing', async () => {
    const url = await postgres.freshDatabase();
    const stores = await storesOn(url, 4);
    const perStore = 25;
    const written = await Promise.all(
      stores.map(async (store, index) => {
        const session = await store.createSession(scope({ agentId: `agent-${index}` }), 60);
        const at = new Date().toISOString();
        const evidence = await Promise.all(
          Array.from({ length: perStore }, (_, n) =>
            store.recordEvidence({
              sessionId: session.id,
              toolName: 'lookup',
              input: { n },
              output: { n },
              isError: false,
              startedAt: at,
              finishedAt: at,
            }),
          ),
        );
        const actions = await Promise.all(
          Array.from({ length: perStore }, (_, n) => recordRefund(store, session, n + 1)),
        );
        await Promise.all(
          actions.map((action) =>
            store.releaseAction({
              actionId: action.id,
              sessionId: session.id,
              verdict: { kind: 'pass', citations: { ruleIds: [], evidenceIds: [], rationale: 'ok' } },
            }),
          ),
        );
        return { session, evidence, actions };
      }),
    );
    const reader = stores[0];
    if (reader === undefined) throw new Error('a store expected');
    for (const { session, evidence, actions } of written) {
      expect((await reader.listEvidence(session.id)).map((record) => record.id).sort()).toEqual(
        evidence.map((record) => record.id).sort(),
      );
      const audit = await reader.audit({ sessionId: session.id });
      expect(audit.map((entry) => entry.action.id).sort()).toEqual(actions.map((action) => action.id).sort());
      for (const entry of audit) {
        expect(entry.action.releasedAt).toBeDefined();
        expect(entry.verdicts.map((verdict) => verdict.verdict.kind)).toEqual(['pass']);
      }
    }
    expect(await reader.listSessions()).toHaveLength(stores.length);
  });

  it('a kill stored on one instance before a release on another wins; a release first keeps its write', async () => {
    const url = await postgres.freshDatabase();
    const [agentSide, operatorSide] = await storesOn(url, 2);
    if (agentSide === undefined || operatorSide === undefined) throw new Error('two stores expected');
    for (let round = 0; round < 10; round++) {
      const session = await agentSide.createSession(scope(), 60);
      const action = await recordRefund(agentSide, session);
      const [release] = await Promise.all([
        agentSide.releaseAction({ actionId: action.id, sessionId: session.id }),
        operatorSide.killSession(session.id, `operator kill ${round}`),
      ]);
      const [entry] = await operatorSide.audit({ sessionId: session.id });
      if (release.released) {
        // The release committed first: the write ran, and the kill came after it.
        expect(entry?.action.releasedAt).toBe(release.releasedAt);
        expect(entry?.verdicts).toEqual([]);
      } else {
        expect(entry?.action.releasedAt).toBeUndefined();
        expect(entry?.verdicts.map((verdict) => [verdict.source, verdict.verdict.kind])).toEqual([
          ['gate', 'kill'],
        ]);
      }
      expect((await operatorSide.getSession(session.id))?.killReason).toBe(`operator kill ${round}`);
    }
  });

  it("a release waits for another connection's lock on the session, then fails past lockWaitMs", async () => {
    const url = await postgres.freshDatabase();
    const [store] = await storesOn(url, 1, { lockWaitMs: 300 });
    if (store === undefined) throw new Error('a store expected');
    const session = await store.createSession(scope(), 60);
    const action = await recordRefund(store, session);
    const other = await rawClient(url);
    await other.query('begin');
    await other.query('select id from sessions where id = $1 for update', [session.id]);
    await expect(store.releaseAction({ actionId: action.id, sessionId: session.id })).rejects.toThrow(
      `Cannot let action ${action.id} run in the Novarch store at ${url.replace(':postgres@', ':***@')}: canceling statement due to lock timeout (another process held the store's write lock for more than 300 ms)`,
    );
    expect((await store.audit())[0]?.action.releasedAt).toBeUndefined();
    // Released within the wait: the release goes through.
    const released = store.releaseAction({ actionId: action.id, sessionId: session.id });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await other.query('commit');
    expect(await released).toMatchObject({ released: true });
  });
});
