import { describe, expect } from 'vitest';
import { NovarchStoreError, type Verdict } from '../../src/index.js';
import { type ConformanceContext, ISO_TIMESTAMP, recordRefund, scope } from './conformance-context.js';

const NESTED = {
  text: 'Grüße, 世界 — "quotes" \\ back\nslash 🚀',
  list: [1, 2.5, -3e-7, true, null, { deep: [[{ deeper: 'ok' }]] }],
  empty: { array: [], object: {} },
};

/** Evidence, actions and verdicts: what goes in comes back, JSON and unicode intact. */
export function describeRecordCases({ store, check }: ConformanceContext): void {
  describe('evidence', () => {
    check('recordEvidence round-trips unicode and nested JSON; listEvidence keeps order', async () => {
      const session = await store().createSession(scope(), 60);
      const other = await store().createSession(scope(), 60);
      const at = new Date().toISOString();
      const first = await store().recordEvidence({
        sessionId: session.id,
        toolName: 'mcp__crm__lookup',
        input: { customerId: 'ç-1', nested: NESTED },
        output: [NESTED, 'second'],
        isError: false,
        startedAt: at,
        finishedAt: at,
      });
      const second = await store().recordEvidence({
        sessionId: session.id,
        toolName: 'Read',
        input: undefined,
        output: null,
        isError: true,
        startedAt: at,
        finishedAt: at,
      });
      await store().recordEvidence({ ...second, sessionId: other.id });
      expect(first.id).toMatch(/^evd_/);
      expect(first.output).toEqual([NESTED, 'second']);
      const listed = await store().listEvidence(session.id);
      expect(listed).toEqual([first, second]);
      expect(listed[1]?.input).toBeUndefined();
      expect(listed[1]?.output).toBeNull();
      expect(await store().listEvidence('ses_missing')).toEqual([]);
    });

    check('recordEvidence refuses a value that is not JSON and stores nothing', async () => {
      const session = await store().createSession(scope(), 60);
      const at = new Date().toISOString();
      const evidence = { sessionId: session.id, toolName: 'Read', output: 1, isError: false, startedAt: at };
      await expect(
        store().recordEvidence({ ...evidence, input: { big: 1n }, finishedAt: at }),
      ).rejects.toThrow(/not JSON-serialisable/);
      await expect(
        store().recordEvidence({ ...evidence, input: 1, finishedAt: 'yesterday' }),
      ).rejects.toThrow(/finished_at/);
      expect(await store().listEvidence(session.id)).toEqual([]);
    });

    check('recordEvidence for an unknown session fails', async () => {
      const at = new Date().toISOString();
      const evidence = {
        toolName: 'Read',
        input: 1,
        output: 1,
        isError: false,
        startedAt: at,
        finishedAt: at,
      };
      await expect(store().recordEvidence({ ...evidence, sessionId: 'ses_missing' })).rejects.toBeInstanceOf(
        NovarchStoreError,
      );
    });
  });

  describe('actions and verdicts', () => {
    check('recordAction round-trips input, context (extra fields kept) and reasoning', async () => {
      const session = await store().createSession(scope(), 60);
      const action = await store().recordAction({
        sessionId: session.id,
        actionType: 'refund',
        toolName: 'mcp__billing__refund',
        input: NESTED,
        context: {
          recordId: 'c-9',
          summary: 'Rückerstattung 12,50 €',
          amount: 12.5,
          currency: 'EUR',
          tags: ['a'],
        },
        reasoning: 'Kunde hat gefragt ✓',
      });
      expect(action).toEqual({
        id: expect.stringMatching(/^act_/),
        sessionId: session.id,
        actionType: 'refund',
        toolName: 'mcp__billing__refund',
        input: NESTED,
        context: {
          recordId: 'c-9',
          summary: 'Rückerstattung 12,50 €',
          amount: 12.5,
          currency: 'EUR',
          tags: ['a'],
        },
        reasoning: 'Kunde hat gefragt ✓',
        createdAt: expect.stringMatching(ISO_TIMESTAMP),
      });
      const [entry] = await store().audit({ sessionId: session.id });
      expect(entry?.action).toEqual(action);
    });

    check('recordAction without reasoning reads back without it', async () => {
      const session = await store().createSession(scope(), 60);
      const action = await store().recordAction({
        sessionId: session.id,
        actionType: 'note',
        toolName: 'mcp__crm__note',
        input: { text: 'hi' },
        context: { recordId: 'r', summary: 's' },
      });
      const [entry] = await store().audit({ sessionId: session.id });
      expect(entry?.action).toEqual(action);
      expect(entry?.action).not.toHaveProperty('reasoning');
    });

    check('recordVerdict round-trips each kind with its citations', async () => {
      const session = await store().createSession(scope(), 60);
      const kinds: Verdict['kind'][] = ['pass', 'kill', 'hold'];
      for (const kind of kinds) {
        const action = await recordRefund(store(), session);
        const verdict: Verdict = {
          kind,
          citations: {
            ruleIds: ['TEAM-2', 'TEAM-7'],
            evidenceIds: ['evd_1'],
            rationale: `${kind}: «begründet»`,
          },
        };
        const stored = await store().recordVerdict({
          actionId: action.id,
          sessionId: session.id,
          verdict,
          source: kind === 'kill' ? 'gate' : 'judge',
        });
        expect(stored).toEqual({
          id: expect.stringMatching(/^vrd_/),
          actionId: action.id,
          sessionId: session.id,
          verdict,
          decidedAt: expect.stringMatching(ISO_TIMESTAMP),
          source: kind === 'kill' ? 'gate' : 'judge',
          osUser: expect.any(String),
        });
        const [entry] = await store().audit({ sessionId: session.id, limit: 1 });
        expect(entry?.verdict).toEqual(stored);
      }
    });

    check('recordVerdict on an unknown action fails', async () => {
      const session = await store().createSession(scope(), 60);
      const verdict: Verdict = { kind: 'pass', citations: { ruleIds: [], evidenceIds: [], rationale: 'ok' } };
      await expect(
        store().recordVerdict({ actionId: 'act_missing', sessionId: session.id, verdict, source: 'judge' }),
      ).rejects.toThrow(/^No action act_missing in session ses_.+: nothing was recorded\.$/);
    });
  });

  describe('ids of another session', () => {
    const citations = { ruleIds: [], evidenceIds: [], rationale: 'x' };

    async function twoSessions() {
      const own = await store().createSession(scope(), 60);
      const other = await store().createSession(scope({ tenantId: 'globex' }), 60);
      const foreign = await recordRefund(store(), other);
      const at = new Date().toISOString();
      const evidence = await store().recordEvidence({
        sessionId: other.id,
        toolName: 'lookup',
        input: 1,
        output: 1,
        isError: false,
        startedAt: at,
        finishedAt: at,
      });
      return { own, other, foreign, evidence };
    }

    check("no operation writes on another session's action or cites its evidence", async () => {
      const { own, other, foreign, evidence } = await twoSessions();
      const pass: Verdict = { kind: 'pass', citations };
      await expect(
        store().recordVerdict({ actionId: foreign.id, sessionId: own.id, verdict: pass, source: 'judge' }),
      ).rejects.toThrow(`No action ${foreign.id} in session ${own.id}: nothing was recorded.`);
      await expect(store().createHold(foreign.id, own.id, new Date(Date.now() + 60_000))).rejects.toThrow(
        `No action ${foreign.id} in session ${own.id}: nothing was recorded.`,
      );
      await expect(
        store().recordRefusal({ sessionId: own.id, source: 'gate', actionId: foreign.id, citations }),
      ).rejects.toThrow(`No action ${foreign.id} in session ${own.id}: no refusal recorded.`);
      await expect(
        store().recordRefusal({
          sessionId: own.id,
          source: 'gate',
          call: { actionType: 'x', toolName: 'x', input: 1, context: { recordId: 'r', summary: 's' } },
          citations: { ...citations, evidenceIds: [evidence.id] },
        }),
      ).rejects.toThrow(`No evidence ${evidence.id} in session ${own.id}: no refusal recorded.`);
      await expect(store().releaseAction({ actionId: foreign.id, sessionId: own.id })).rejects.toThrow(
        NovarchStoreError,
      );
      await expect(
        store().killSession(own.id, 'x', { source: 'gate', actionId: foreign.id }),
      ).rejects.toThrow(`No action ${foreign.id} in session ${own.id}: nothing was killed.`);
      await expect(
        store().killSession(own.id, 'x', { source: 'gate', evidenceIds: [evidence.id] }),
      ).rejects.toThrow(`No evidence ${evidence.id} in session ${own.id}: nothing was killed.`);
      // Nothing was written, on either session.
      const [entry] = await store().audit({ sessionId: other.id });
      expect(entry?.verdicts).toEqual([]);
      expect(entry?.hold).toBeUndefined();
      expect(entry?.action.releasedAt).toBeUndefined();
      expect(await store().audit({ sessionId: own.id })).toEqual([]);
      expect((await store().getSession(own.id))?.killedAt).toBeUndefined();
    });

    check("a session's own action and evidence are accepted where others' are not", async () => {
      const { own } = await twoSessions();
      const action = await recordRefund(store(), own);
      const at = new Date().toISOString();
      const evidence = await store().recordEvidence({
        sessionId: own.id,
        toolName: 'lookup',
        input: 1,
        output: 1,
        isError: false,
        startedAt: at,
        finishedAt: at,
      });
      const refused = await store().recordRefusal({
        sessionId: own.id,
        source: 'gate',
        actionId: action.id,
        citations: { ...citations, evidenceIds: [evidence.id, evidence.id] },
      });
      expect(refused.action.id).toBe(action.id);
      await store().killSession(own.id, 'x', {
        source: 'gate',
        actionId: action.id,
        evidenceIds: [evidence.id],
      });
      expect((await store().getSession(own.id))?.kill).toMatchObject({ actionId: action.id });
    });
  });
}
