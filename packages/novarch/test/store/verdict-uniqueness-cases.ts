import { describe, expect, it } from 'vitest';
import type { NovarchDatabaseStore, SessionRecord } from '../../src/index.js';
import { VerdictConflictError } from '../../src/index.js';
import { tenantChain } from '../../src/model/audit-chain.js';
import { verdictRow } from '../../src/store/action-queries.js';
import { appendVerdictLink, lockAuditChain } from '../../src/store/audit-chain-queries.js';
import { chainWorld, type TamperableStore } from './chain-world.js';

const PASS = {
  kind: 'pass' as const,
  citations: { ruleIds: ['small'], evidenceIds: [], rationale: 'small refund' },
};

const refuse = (store: NovarchDatabaseStore, session: SessionRecord, actionId: string, by: string) =>
  store.recordRefusal({
    sessionId: session.id,
    actionId,
    source: 'gate',
    citations: { ruleIds: [], evidenceIds: [], rationale: `refused by ${by}` },
  });

/** One verdict per action and kind (migration 15), with two writers on one database. */
export function describeVerdictUniquenessCases(name: string, open: () => Promise<TamperableStore>): void {
  describe(`one verdict per action and kind: ${name}`, () => {
    const inWorld = chainWorld(open);

    it('two writers refusing the same writes at once store one refusal each; both get it back', () =>
      inWorld(async ({ store, openAnother, session, refund }) => {
        const other = await openAnother();
        const actions = await Promise.all(Array.from({ length: 6 }, (_, i) => refund(i)));
        const results = await Promise.all(
          actions.map((action) =>
            Promise.all([refuse(store, session, action.id, 'A'), refuse(other, session, action.id, 'B')]),
          ),
        );
        for (const [first, second] of results) expect(second.verdict).toEqual(first.verdict);
        const entries = await other.audit({ sessionId: session.id });
        expect(entries.map((entry) => entry.verdicts.length)).toEqual([1, 1, 1, 1, 1, 1]);
        const [report] = await store.verifyAuditChains({ tenantId: 'acme' });
        expect(report?.links).toBe(6);
        expect(report?.problems).toEqual([]);
      }));

    it('a pass or a release after a refusal is refused, naming the refusal; a refusal after a release too', () =>
      inWorld(async ({ store, session, refund, chainProblems }) => {
        const action = await refund();
        const { verdict: kill } = await refuse(store, session, action.id, 'the survivor');
        const message = `Action ${action.id} was already refused (verdict ${kill.id} by the gate: refused by the survivor), stored first: this pass was not recorded and the write does not run.`;
        const late = store.recordVerdict({
          actionId: action.id,
          sessionId: session.id,
          source: 'judge',
          verdict: PASS,
        });
        await expect(late).rejects.toThrow(VerdictConflictError);
        await expect(late).rejects.toThrow(message);
        await expect(
          store.releaseAction({ actionId: action.id, sessionId: session.id, verdict: PASS }),
        ).rejects.toThrow(message);
        // The same kind again (a retried refusal): the stored one, nothing added.
        expect((await refuse(store, session, action.id, 'a retry')).verdict).toEqual(kill);
        const [entry] = await store.audit({ sessionId: session.id });
        expect(entry?.action.releasedAt).toBeUndefined();
        expect(entry?.verdicts).toEqual([kill]);

        const ran = await refund(5);
        const release = await store.releaseAction({ actionId: ran.id, sessionId: session.id, verdict: PASS });
        if (!release.released) throw new Error('an open session was found killed');
        await expect(refuse(store, session, ran.id, 'a late reaper')).rejects.toThrow(
          `Action ${ran.id} already ran (its pass released it at ${release.releasedAt}), stored first: no refusal was recorded.`,
        );
        expect(await chainProblems()).toEqual([]);
      }));

    it('a release racing a refusal on another writer: exactly one of them decides the write', () =>
      inWorld(async ({ store, openAnother, session, refund, chainProblems }) => {
        const other = await openAnother();
        for (let round = 0; round < 6; round += 1) {
          const action = await refund(round);
          const [released, refused] = await Promise.allSettled([
            store.releaseAction({ actionId: action.id, sessionId: session.id, verdict: PASS }),
            refuse(other, session, action.id, 'B'),
          ]);
          const [entry] = await store.audit({ sessionId: session.id, limit: 1 });
          const kinds = entry?.verdicts.map((verdict) => verdict.verdict.kind);
          if (released.status === 'fulfilled') {
            expect(refused.status).toBe('rejected');
            expect(kinds).toEqual(['pass']);
            expect(entry?.action.releasedAt).toBeDefined();
          } else {
            expect(refused.status).toBe('fulfilled');
            expect(released.reason).toBeInstanceOf(VerdictConflictError);
            expect(kinds).toEqual(['kill']);
            expect(entry?.action.releasedAt).toBeUndefined();
          }
        }
        expect(await chainProblems()).toEqual([]);
      }));

    it('a store with duplicate verdicts from before migration 15 keeps the earliest and sets the later aside', () =>
      inWorld(async ({ store, exec, openAnother, transaction, session, refund }) => {
        const action = await refund();
        const { verdict: first } = await refuse(store, session, action.id, 'A');
        // The schema before migration 15, and a second server's refusal as Novarch wrote it then.
        await exec('drop index verdicts_one_per_kind');
        await exec('drop table verdicts_set_aside');
        await exec('delete from schema_migrations where version = 15');
        const second = await transaction(async (db) => {
          const chain = tenantChain('acme');
          const head = await lockAuditChain(db, chain);
          const { row } = verdictRow({
            actionId: action.id,
            sessionId: session.id,
            source: 'gate',
            verdict: { kind: 'kill', citations: { ruleIds: [], evidenceIds: [], rationale: 'refused by B' } },
          });
          await db.insertInto('verdicts').values(row).execute();
          await appendVerdictLink(db, chain, row, { head });
          return row.id;
        });
        await exec(
          `insert into verdicts (id, action_id, session_id, kind, citations_json, source, decided_at) values ('vrd_forged', '${action.id}', '${session.id}', 'kill', '{"ruleIds":[],"evidenceIds":[],"rationale":"x"}', 'gate', '2026-01-01T00:00:00.000Z')`,
        );
        const migrated = await openAnother();
        const [entry] = await migrated.audit({ sessionId: session.id });
        expect(entry?.verdicts).toEqual([first]);
        const setAside = await transaction((db) =>
          db.selectFrom('verdicts_set_aside').select('id').orderBy('seq').execute(),
        );
        expect(setAside.map((row) => row.id)).toEqual([second, 'vrd_forged']);
        // The chained duplicate still verifies where it now is; the forged one is still reported.
        const [report] = await migrated.verifyAuditChains({ tenantId: 'acme' });
        expect(report?.links).toBe(2);
        expect(report?.problems.map((problem) => problem.message)).toEqual([
          "The verdict vrd_forged is in the store but in no link of the chain: inserted behind Novarch's back.",
        ]);
        expect((await refuse(migrated, session, action.id, 'C')).verdict).toEqual(first);
        await expect(
          exec(
            `insert into verdicts (id, action_id, session_id, kind, citations_json, source, decided_at) values ('vrd_again', '${action.id}', '${session.id}', 'kill', '{}', 'gate', '2026-01-01T00:00:00.000Z')`,
          ),
        ).rejects.toThrow(/unique/i);
      }));
  });
}
