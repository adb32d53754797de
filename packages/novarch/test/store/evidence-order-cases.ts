import { describe, expect } from 'vitest';
import { UnknownRecordError } from '../../src/store/novarch-store-error.js';
import { type ConformanceContext, recordRefund, scope } from './conformance-context.js';

/** `listEvidenceBefore`: what a replay counts as seen, in the store's order, never by a clock. */
export function describeEvidenceOrderCases({ store, check }: ConformanceContext): void {
  describe('evidence stored before an action', () => {
    const read = (sessionId: string, at: string, customerId: string) =>
      store().recordEvidence({
        sessionId,
        toolName: 'lookup_customer',
        input: { customerId },
        output: { ok: true },
        isError: false,
        startedAt: at,
        finishedAt: at,
      });

    check('is ordered by the store, not by the times the agent stamped on its reads', async () => {
      const session = await store().createSession(scope(), 60);
      const other = await store().createSession(scope(), 60);
      // An agent 10 s ahead stamps its read in the future; one behind stamps a later read in the past.
      const ahead = await read(session.id, new Date(Date.now() + 10_000).toISOString(), 'c-1');
      await read(other.id, new Date().toISOString(), 'c-other');
      const first = await recordRefund(store(), session);
      const behind = await read(session.id, new Date(Date.now() - 10_000).toISOString(), 'c-2');
      const second = await recordRefund(store(), session);
      expect(await store().listEvidenceBefore(first.id)).toEqual([ahead]);
      expect(await store().listEvidenceBefore(second.id)).toEqual([ahead, behind]);
    });

    check('an action with no evidence before it has none; an unknown action fails', async () => {
      const session = await store().createSession(scope(), 60);
      const action = await recordRefund(store(), session);
      await read(session.id, new Date(Date.now() - 60_000).toISOString(), 'c-1');
      expect(await store().listEvidenceBefore(action.id)).toEqual([]);
      const unknown = store().listEvidenceBefore('act_missing');
      await expect(unknown).rejects.toBeInstanceOf(UnknownRecordError);
      await expect(unknown).rejects.toThrow('No action act_missing: no evidence to list.');
    });
  });
}
