import { describe, expect } from 'vitest';
import type { NovarchDatabaseStore, SessionRecord, Verdict } from '../../src/index.js';
import { type ConformanceContext, scope } from './conformance-context.js';

const PASS: Extract<Verdict, { kind: 'pass' }> = {
  kind: 'pass',
  citations: { ruleIds: ['TEAM-1'], evidenceIds: [], rationale: 'looked up first' },
};

function proposeRefund(store: NovarchDatabaseStore, session: SessionRecord, amount = 120) {
  return store.proposeAction({
    sessionId: session.id,
    actionType: 'refund',
    toolName: 'mcp__billing__refund',
    input: { customerId: 'c-1', amount },
    context: { recordId: 'c-1', summary: `refund ${amount} EUR`, amount },
    reasoning: 'customer asked',
  });
}

async function lookUp(store: NovarchDatabaseStore, session: SessionRecord, customer: string) {
  const at = new Date().toISOString();
  return store.recordEvidence({
    sessionId: session.id,
    toolName: 'lookup',
    input: { customer },
    output: { customer, standing: 'good' },
    isError: false,
    startedAt: at,
    finishedAt: at,
  });
}

/**
 * `proposeAction`, a write's first step (kill check, action, evidence in one transaction), and its
 * release: one durable commit per passed write, with every guarantee of the separate steps.
 */
export function describeProposeActionCases({ store, check }: ConformanceContext): void {
  describe('proposeAction', () => {
    check("proposeAction stores the action and returns the session's evidence, in order", async () => {
      const session = await store().createSession(scope(), 60);
      const other = await store().createSession(scope(), 60);
      const first = await lookUp(store(), session, 'c-1');
      await lookUp(store(), other, 'c-9');
      const second = await lookUp(store(), session, 'c-2');
      const proposal = await proposeRefund(store(), session);
      expect(proposal).toEqual({
        open: true,
        action: expect.objectContaining({ id: expect.stringMatching(/^act_/), sessionId: session.id }),
        evidence: [first, second],
      });
      const [entry] = await store().audit({ sessionId: session.id });
      expect(entry?.action).toEqual(proposal.action);
      expect(entry?.verdicts).toEqual([]);
      // Stored before it is judged: the store's order places it (replay, history).
      expect(await store().listEvidenceBefore(proposal.action.id)).toEqual([first, second]);
    });

    check("a killed session's write is recorded refused by the gate, never judged", async () => {
      const session = await store().createSession(scope(), 60);
      await store().killSession(session.id, 'fraud suspected', { source: 'operator', ruleIds: ['OPS-1'] });
      const proposal = await proposeRefund(store(), session);
      if (proposal.open) throw new Error('a killed session was proposed open');
      expect(proposal.session.killReason).toBe('fraud suspected');
      expect(proposal.verdict).toMatchObject({
        actionId: proposal.action.id,
        source: 'gate',
        verdict: {
          kind: 'kill',
          citations: {
            ruleIds: ['OPS-1'],
            evidenceIds: [],
            rationale:
              'the session was stopped before this write could be judged (fraud suspected); it did not run',
          },
        },
      });
      const [entry] = await store().audit({ sessionId: session.id });
      expect(entry?.action).toMatchObject({ id: proposal.action.id, actionType: 'refund' });
      expect(entry?.action.releasedAt).toBeUndefined();
      expect(entry?.verdicts).toEqual([proposal.verdict]);
      const [report] = await store().verifyAuditChains({ tenantId: 'acme' });
      expect(report?.problems).toEqual([]);
    });

    check('proposeAction on an unknown session fails and stores nothing', async () => {
      await expect(
        store().proposeAction({
          sessionId: 'ses_missing',
          actionType: 'refund',
          toolName: 'mcp__billing__refund',
          input: 1,
          context: { recordId: 'r', summary: 's' },
        }),
      ).rejects.toThrow('No session ses_missing: nothing was judged.');
      expect(await store().audit({})).toEqual([]);
    });

    check('a kill that lands between the proposal and the release refuses the release', async () => {
      const session = await store().createSession(scope(), 60);
      const proposal = await proposeRefund(store(), session);
      if (!proposal.open) throw new Error('an open session was proposed killed');
      await store().killSession(session.id, 'operator stop', { source: 'operator' });
      const release = await store().releaseAction({
        actionId: proposal.action.id,
        sessionId: session.id,
        verdict: PASS,
      });
      expect(release).toMatchObject({ released: false, session: { killReason: 'operator stop' } });
      const [entry] = await store().audit({ sessionId: session.id });
      expect(entry?.action.releasedAt).toBeUndefined();
      expect(entry?.verdicts.map((verdict) => [verdict.source, verdict.verdict.kind])).toEqual([
        ['judge', 'pass'],
        ['gate', 'kill'],
      ]);
      const [report] = await store().verifyAuditChains({ tenantId: 'acme' });
      expect(report?.problems).toEqual([]);
    });

    check('a passed release after a proposal is one chained verdict; the chain verifies', async () => {
      const session = await store().createSession(scope(), 60);
      for (const amount of [10, 20]) {
        const proposal = await proposeRefund(store(), session, amount);
        if (!proposal.open) throw new Error('an open session was proposed killed');
        const release = await store().releaseAction({
          actionId: proposal.action.id,
          sessionId: session.id,
          verdict: PASS,
        });
        expect(release).toEqual({ released: true, releasedAt: expect.any(String) });
      }
      const entries = await store().audit({ sessionId: session.id });
      expect(
        entries.map((entry) => [entry.verdict?.verdict.kind, entry.action.releasedAt !== undefined]),
      ).toEqual([
        ['pass', true],
        ['pass', true],
      ]);
      const [report] = await store().verifyAuditChains({ tenantId: 'acme' });
      expect([report?.links, report?.problems]).toEqual([2, []]);
      // Released once: a second release of the same action fails and changes nothing.
      const first = entries[0]?.action.id ?? '';
      await expect(store().releaseAction({ actionId: first, sessionId: session.id })).rejects.toThrow(
        `Action ${first} of session ${session.id} is unknown or already ran.`,
      );
    });
  });
}
