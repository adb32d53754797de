import { describe, expect } from 'vitest';
import type { NovarchStore, SessionRecord, Verdict } from '../../src/index.js';
import { type ConformanceContext, inSeconds, recordRefund, scope } from './conformance-context.js';

function citing(kind: Verdict['kind']): Verdict {
  return { kind, citations: { ruleIds: ['TEAM-1'], evidenceIds: [], rationale: kind } };
}

async function judged(store: NovarchStore, session: SessionRecord, kind: Verdict['kind']) {
  const action = await recordRefund(store, session);
  const verdict = await store.recordVerdict({
    actionId: action.id,
    sessionId: session.id,
    verdict: citing(kind),
    source: 'judge',
  });
  return { action, verdict };
}

/** The audit trail and its filters. */
export function describeAuditCases({ store, check }: ConformanceContext): void {
  describe('audit', () => {
    check('an entry joins the action, its session, its verdict and its hold', async () => {
      const session = await store().createSession(scope(), 60);
      const { action, verdict } = await judged(store(), session, 'hold');
      const hold = await store().createHold(action.id, session.id, inSeconds(60));
      const unjudged = await recordRefund(store(), session);
      expect(await store().audit()).toEqual([
        { action, session, verdict, verdicts: [verdict], hold },
        { action: unjudged, session, verdicts: [] },
      ]);
    });

    check('an entry shows the latest verdict of its action, and all of them oldest first', async () => {
      const session = await store().createSession(scope(), 60);
      const { action, verdict: first } = await judged(store(), session, 'hold');
      const latest = await store().recordVerdict({
        actionId: action.id,
        sessionId: session.id,
        verdict: citing('kill'),
        source: 'gate',
      });
      const entries = await store().audit();
      expect(entries.map((entry) => entry.verdict)).toEqual([latest]);
      expect(entries.map((entry) => entry.verdicts)).toEqual([[first, latest]]);
      expect(await store().audit({ verdict: 'hold' })).toEqual([]);
    });

    check('filters by tenant, agent, session and verdict, alone and combined', async () => {
      const s1 = await store().createSession(scope({ tenantId: 't1', agentId: 'a1' }), 60);
      const s2 = await store().createSession(scope({ tenantId: 't1', agentId: 'a2' }), 60);
      const s3 = await store().createSession(scope({ tenantId: 't2', agentId: 'a1' }), 60);
      const p1 = await judged(store(), s1, 'pass');
      const k2 = await judged(store(), s2, 'kill');
      const h3 = await judged(store(), s3, 'hold');
      const p3 = await judged(store(), s3, 'pass');
      const ids = async (filter: Parameters<NovarchStore['audit']>[0]) =>
        (await store().audit(filter)).map((entry) => entry.action.id);
      expect(await ids({})).toEqual([p1.action.id, k2.action.id, h3.action.id, p3.action.id]);
      expect(await ids({ tenantId: 't1' })).toEqual([p1.action.id, k2.action.id]);
      expect(await ids({ agentId: 'a1' })).toEqual([p1.action.id, h3.action.id, p3.action.id]);
      expect(await ids({ sessionId: s3.id })).toEqual([h3.action.id, p3.action.id]);
      expect(await ids({ verdict: 'pass' })).toEqual([p1.action.id, p3.action.id]);
      expect(await ids({ verdict: 'kill' })).toEqual([k2.action.id]);
      expect(await ids({ tenantId: 't2', verdict: 'pass' })).toEqual([p3.action.id]);
      expect(await ids({ tenantId: 't1', agentId: 'a1', verdict: 'kill' })).toEqual([]);
      expect(await ids({ tenantId: 'nobody' })).toEqual([]);
    });

    check('limit keeps the most recent entries, oldest first', async () => {
      const session = await store().createSession(scope(), 60);
      const all = [];
      for (const kind of ['pass', 'hold', 'pass', 'kill', 'pass'] as const)
        all.push(await judged(store(), session, kind));
      const ids = async (filter: Parameters<NovarchStore['audit']>[0]) =>
        (await store().audit(filter)).map((entry) => entry.action.id);
      expect(await ids({ limit: 2 })).toEqual([all[3]?.action.id, all[4]?.action.id]);
      expect(await ids({ limit: 2, verdict: 'pass' })).toEqual([all[2]?.action.id, all[4]?.action.id]);
      expect(await ids({ limit: 50 })).toHaveLength(5);
    });

    check('a limit that is not a positive integer is refused', async () => {
      await expect(store().audit({ limit: 0 })).rejects.toThrow(
        'Audit limit must be a positive integer; got 0.',
      );
      await expect(store().audit({ limit: 1.5 })).rejects.toThrow(/positive integer/);
    });

    check('an empty store has an empty audit trail', async () => {
      expect(await store().audit()).toEqual([]);
    });
  });

  describe('lifecycle', () => {
    check('a closed store refuses work and may be closed again', async () => {
      const opened = store();
      await opened.close();
      await opened.close();
      await expect(opened.listSessions()).rejects.toThrow(/store at .* is closed|is closed/);
    });
  });
}
