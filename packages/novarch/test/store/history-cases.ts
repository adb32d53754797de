import { describe, expect } from 'vitest';
import type { NovarchDatabaseStore, SessionRecord } from '../../src/index.js';
import type { HistoryQuery } from '../../src/model/action-history.js';
import { UnknownRecordError } from '../../src/store/novarch-store-error.js';
import { type ConformanceContext, scope } from './conformance-context.js';

const DAY = 86_400_000;

/** A history query with defaults: the tenant's refunds of the last day. */
function query(overrides: Partial<HistoryQuery> = {}): HistoryQuery {
  return {
    scope: 'tenant',
    aggregate: 'count',
    actionType: 'refund',
    windowMs: DAY,
    filter: [],
    ...overrides,
  };
}

function refund(store: NovarchDatabaseStore, session: SessionRecord, customerId: string, amount: number) {
  return store.recordAction({
    sessionId: session.id,
    actionType: 'refund',
    toolName: 'mcp__billing__refund',
    input: { customer_id: customerId, amount, order: { id: `o-${amount}` } },
    context: { recordId: customerId, summary: `refund ${amount}`, amount, customer_id: customerId },
  });
}

/** `queryActionHistory`: the aggregates history conditions read, as of one action, in store order. */
export function describeHistoryCases({ store, check }: ConformanceContext): void {
  describe('action history', () => {
    check('counts, sums and finds earlier actions of a type in the session, agent and tenant', async () => {
      const mine = await store().createSession(scope(), 60);
      const sameAgent = await store().createSession(scope(), 60);
      const otherAgent = await store().createSession(scope({ agentId: 'other-bot' }), 60);
      const otherTenant = await store().createSession(scope({ tenantId: 'globex' }), 60);
      await refund(store(), mine, 'c-1', 100);
      await refund(store(), sameAgent, 'c-1', 50);
      await refund(store(), otherAgent, 'c-2', 25);
      await refund(store(), otherTenant, 'c-1', 1000);
      await store().recordAction({
        sessionId: mine.id,
        actionType: 'close_ticket',
        toolName: 'close',
        input: {},
        context: { recordId: 'c-1', summary: 'close' },
      });
      const judged = await refund(store(), mine, 'c-1', 10);
      const ask = (overrides: Partial<HistoryQuery>) =>
        store().queryActionHistory(judged.id, query(overrides));
      expect(await ask({ scope: 'session' })).toBe(1);
      expect(await ask({ scope: 'agent' })).toBe(2);
      expect(await ask({ scope: 'tenant' })).toBe(3);
      const amount = { column: 'context', keys: ['amount'] } as const;
      expect(await ask({ aggregate: 'sum', field: amount })).toBe(175);
      expect(await ask({ aggregate: 'sum', field: amount, scope: 'session' })).toBe(100);
      expect(await ask({ aggregate: 'exists', actionType: 'close_ticket' })).toBe(1);
      expect(await ask({ aggregate: 'exists', actionType: 'delete_account' })).toBe(0);
      expect(await ask({ aggregate: 'sum', actionType: 'delete_account', field: amount })).toBe(0);
    });

    check('filters on context and input fields, the tool and the release', async () => {
      const session = await store().createSession(scope(), 60);
      const first = await refund(store(), session, 'c-1', 100);
      await refund(store(), session, 'c-2', 40);
      await store().releaseAction({ actionId: first.id, sessionId: session.id });
      const judged = await refund(store(), session, 'c-1', 10);
      const ask = (filter: HistoryQuery['filter'], aggregate: HistoryQuery['aggregate'] = 'count') =>
        store().queryActionHistory(
          judged.id,
          query({
            aggregate,
            filter,
            ...(aggregate === 'sum' ? { field: { column: 'input', keys: ['amount'] } } : {}),
          }),
        );
      const customer = (value: string | number) =>
        ({ kind: 'field', field: { column: 'context', keys: ['customer_id'] }, value }) as const;
      expect(await ask([customer('c-1')])).toBe(1);
      expect(await ask([customer('c-2')], 'sum')).toBe(40);
      expect(await ask([customer('c-3')])).toBe(0);
      // JSON equality: the number 100 is not the string "100".
      expect(await ask([{ kind: 'field', field: { column: 'input', keys: ['amount'] }, value: 100 }])).toBe(
        1,
      );
      expect(await ask([{ kind: 'field', field: { column: 'input', keys: ['amount'] }, value: '100' }])).toBe(
        0,
      );
      expect(
        await ask([{ kind: 'field', field: { column: 'input', keys: ['order', 'id'] }, value: 'o-40' }]),
      ).toBe(1);
      expect(await ask([{ kind: 'tool', value: 'mcp__billing__refund' }])).toBe(2);
      expect(await ask([{ kind: 'tool', value: 'other' }])).toBe(0);
      expect(await ask([{ kind: 'released', value: true }])).toBe(1);
      expect(await ask([{ kind: 'released', value: false }])).toBe(1);
      expect(await ask([{ kind: 'released', value: true }, customer('c-2')])).toBe(0);
    });

    check(
      'answers as of the action, in the store order: later actions and releases change nothing',
      async () => {
        const session = await store().createSession(scope(), 60);
        await refund(store(), session, 'c-1', 100);
        const judged = await refund(store(), session, 'c-1', 10);
        const released = query({ filter: [{ kind: 'released', value: true }] });
        const before = [
          await store().queryActionHistory(judged.id, query()),
          await store().queryActionHistory(judged.id, released),
        ];
        const later = await refund(store(), session, 'c-1', 20);
        await store().releaseAction({ actionId: later.id, sessionId: session.id });
        const after = [
          await store().queryActionHistory(judged.id, query()),
          await store().queryActionHistory(judged.id, released),
        ];
        expect(before).toEqual([1, 0]);
        expect(after).toEqual(before);
        expect(await store().queryActionHistory(later.id, query())).toBe(2);
      },
    );

    check('counts only the window before the action', async () => {
      const session = await store().createSession(scope(), 60);
      await refund(store(), session, 'c-1', 100);
      // A lower bound only: the next action is at least 1.1 s after the first.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await refund(store(), session, 'c-1', 50);
      const judged = await refund(store(), session, 'c-1', 10);
      expect(await store().queryActionHistory(judged.id, query({ windowMs: 1_000 }))).toBe(1);
      expect(await store().queryActionHistory(judged.id, query({ windowMs: 60_000 }))).toBe(2);
    });

    check('an unknown action fails', async () => {
      const answer = store().queryActionHistory('act_missing', query());
      await expect(answer).rejects.toBeInstanceOf(UnknownRecordError);
      await expect(answer).rejects.toThrow('No action act_missing: its history cannot be read.');
    });
  });
}
