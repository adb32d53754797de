import { describe, expect } from 'vitest';
import { NovarchStoreError } from '../../src/index.js';
import { type ConformanceContext, ISO_TIMESTAMP, recordRefund, scope } from './conformance-context.js';

/** Sessions: create, read, list with filters, and the kill latch. */
export function describeSessionCases({ store, check }: ConformanceContext): void {
  describe('sessions', () => {
    check('createSession stores the scope and hold wait; getSession reads it back', async () => {
      const created = await store().createSession(scope({ tenantId: 'tenant-ü', agentId: 'agent 🤖' }), 90.5);
      expect(created).toEqual({
        id: expect.stringMatching(/^ses_/),
        tenantId: 'tenant-ü',
        teamId: 'support',
        agentId: 'agent 🤖',
        startedAt: expect.stringMatching(ISO_TIMESTAMP),
        holdWaitSeconds: 90.5,
      });
      expect(await store().getSession(created.id)).toEqual(created);
    });

    check('getSession of an unknown id is undefined', async () => {
      expect(await store().getSession('ses_missing')).toBeUndefined();
    });

    check('createSession refuses a negative or non-finite hold wait', async () => {
      await expect(store().createSession(scope(), -1)).rejects.toThrow(
        /holdWaitSeconds must be a finite number/,
      );
      await expect(store().createSession(scope(), Number.NaN)).rejects.toBeInstanceOf(NovarchStoreError);
      expect(await store().listSessions()).toEqual([]);
    });

    check(
      'listSessions returns sessions in creation order, filtered by tenant, agent and killed',
      async () => {
        const a = await store().createSession(scope({ tenantId: 't1', agentId: 'a1' }), 60);
        const b = await store().createSession(scope({ tenantId: 't1', agentId: 'a2' }), 60);
        const c = await store().createSession(scope({ tenantId: 't2', agentId: 'a1' }), 60);
        await store().killSession(b.id, 'judge kill');
        const ids = async (filter?: Parameters<ReturnType<typeof store>['listSessions']>[0]) =>
          (await store().listSessions(filter)).map((session) => session.id);
        expect(await ids()).toEqual([a.id, b.id, c.id]);
        expect(await ids({ tenantId: 't1' })).toEqual([a.id, b.id]);
        expect(await ids({ agentId: 'a1' })).toEqual([a.id, c.id]);
        expect(await ids({ tenantId: 't1', agentId: 'a1' })).toEqual([a.id]);
        expect(await ids({ killed: true })).toEqual([b.id]);
        expect(await ids({ killed: false })).toEqual([a.id, c.id]);
        expect(await ids({ tenantId: 't2', killed: true })).toEqual([]);
      },
    );

    check('killSession latches the session with its reason and time', async () => {
      const session = await store().createSession(scope(), 60);
      await store().killSession(session.id, 'TEAM-2: refund without lookup');
      expect(await store().getSession(session.id)).toEqual({
        ...session,
        killedAt: expect.stringMatching(ISO_TIMESTAMP),
        killReason: 'TEAM-2: refund without lookup',
        kill: { source: 'operator', ruleIds: [], evidenceIds: [], osUser: expect.any(String) },
      });
    });

    check('killSession keeps who stopped the session and the citations (a judge kill)', async () => {
      const session = await store().createSession(scope(), 60);
      const action = await recordRefund(store(), session);
      const at = new Date().toISOString();
      const evidence = await store().recordEvidence({
        sessionId: session.id,
        toolName: 'lookup',
        input: 1,
        output: 1,
        isError: false,
        startedAt: at,
        finishedAt: at,
      });
      await store().killSession(session.id, 'TEAM-1: no lookup', {
        source: 'judge',
        actionId: action.id,
        ruleIds: ['TEAM-1'],
        evidenceIds: [evidence.id],
      });
      expect((await store().getSession(session.id))?.kill).toEqual({
        source: 'judge',
        actionId: action.id,
        ruleIds: ['TEAM-1'],
        evidenceIds: [evidence.id],
        osUser: expect.any(String),
      });
    });

    check('a second kill keeps the first reason and time', async () => {
      const session = await store().createSession(scope(), 60);
      await store().killSession(session.id, 'first');
      const first = await store().getSession(session.id);
      await store().killSession(session.id, 'second');
      expect(await store().getSession(session.id)).toEqual(first);
      expect(first?.killReason).toBe('first');
    });

    check('concurrent kills latch exactly one reason', async () => {
      const session = await store().createSession(scope(), 60);
      const reasons = Array.from({ length: 8 }, (_, index) => `reason ${index}`);
      await Promise.all(reasons.map((reason) => store().killSession(session.id, reason)));
      const killed = await store().getSession(session.id);
      expect(reasons).toContain(killed?.killReason);
    });

    check('killSession of an unknown session fails and says so', async () => {
      await expect(store().killSession('ses_missing', 'x')).rejects.toThrow('No session ses_missing');
    });
  });
}
