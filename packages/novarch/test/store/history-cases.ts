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

    check(
      'filters on fields of records too big to index, on long values, with null and several filters',
      async () => {
        const session = await store().createSession(scope(), 60);
        const other = await store().createSession(scope({ agentId: 'other-bot' }), 60);
        // 100 leaves: past the index's bound, so the record has only its marker row.
        const wide = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`f${index}`, index]));
        const long = 'L'.repeat(500);
        const record = (sessionId: string, input: unknown, context: Record<string, unknown>) =>
          store().recordAction({
            sessionId,
            actionType: 'refund',
            toolName: 'refund',
            input,
            context: { recordId: 'c-1', summary: 's', ...context },
          });
        await record(session.id, { ...wide, customer_id: 'c-1', amount: 7 }, { note: long });
        await record(session.id, { customer_id: 'c-1', amount: 5 }, { note: long, flag: null });
        await record(session.id, { customer_id: 'c-1', amount: 3 }, { note: 'short' });
        await record(other.id, { customer_id: 'c-1', amount: 11 }, { note: long });
        const judged = await record(session.id, { customer_id: 'c-1', amount: 1 }, {});
        const field = (column: 'context' | 'input', key: string, value: string | number | null) =>
          ({ kind: 'field', field: { column, keys: [key] }, value }) as const;
        const amount = { column: 'input', keys: ['amount'] } as const;
        const ask = (overrides: Partial<HistoryQuery>) =>
          store().queryActionHistory(judged.id, query(overrides));
        expect(await ask({ filter: [field('input', 'customer_id', 'c-1')] })).toBe(4);
        expect(await ask({ filter: [field('input', 'f42', 42)] })).toBe(1);
        expect(await ask({ filter: [field('input', 'f42', 43)] })).toBe(0);
        expect(await ask({ filter: [field('context', 'note', long)] })).toBe(3);
        expect(await ask({ filter: [field('context', 'note', long)], scope: 'agent' })).toBe(2);
        expect(await ask({ filter: [field('context', 'note', long)], scope: 'session' })).toBe(2);
        expect(await ask({ filter: [field('context', 'note', `${long}x`)] })).toBe(0);
        // null: the field is null (one record) or absent (the others).
        expect(await ask({ filter: [field('context', 'flag', null)] })).toBe(4);
        expect(await ask({ filter: [field('context', 'flag', null), field('input', 'amount', 5)] })).toBe(1);
        expect(await ask({ filter: [field('context', 'note', null)] })).toBe(0);
        expect(await ask({ aggregate: 'sum', field: amount })).toBe(26);
        expect(await ask({ aggregate: 'sum', field: amount, scope: 'agent' })).toBe(15);
        expect(await ask({ aggregate: 'sum', field: amount, filter: [field('context', 'note', long)] })).toBe(
          23,
        );
        expect(
          await ask({
            aggregate: 'sum',
            field: amount,
            filter: [field('context', 'note', long), { kind: 'tool', value: 'refund' }],
            scope: 'session',
          }),
        ).toBe(12);
        expect(await ask({ aggregate: 'exists', filter: [field('input', 'f99', 99)] })).toBe(1);
      },
    );

    check(
      'counts, sums and finds past evidence of a tool, in store order, by input, output and error',
      async () => {
        const mine = await store().createSession(scope(), 60);
        const sameAgent = await store().createSession(scope(), 60);
        const otherTenant = await store().createSession(scope({ tenantId: 'globex' }), 60);
        const read = (session: SessionRecord, customer: string, isError: boolean, balance: number) => {
          const at = new Date().toISOString();
          return store().recordEvidence({
            sessionId: session.id,
            toolName: 'lookup',
            input: { customer_id: customer },
            output: { balance, customer: { id: customer } },
            isError,
            startedAt: at,
            finishedAt: at,
          });
        };
        await read(mine, 'c-1', false, 100);
        await read(mine, 'c-1', true, 0);
        await read(sameAgent, 'c-1', false, 30);
        await read(sameAgent, 'c-2', false, 7);
        await read(otherTenant, 'c-1', false, 1000);
        const judged = await refund(store(), mine, 'c-1', 10);
        await read(mine, 'c-1', false, 5000); // after the judged action: never counted for it
        const evidence = (overrides: Partial<HistoryQuery>) =>
          store().queryActionHistory(
            judged.id,
            query({ kind: 'evidence', actionType: 'lookup', ...overrides }),
          );
        const customer = (value: string) =>
          ({ kind: 'field', field: { column: 'input', keys: ['customer_id'] }, value }) as const;
        const balance = { column: 'output', keys: ['balance'] } as const;
        expect(await evidence({ scope: 'session' })).toBe(2);
        expect(await evidence({ scope: 'agent' })).toBe(4);
        expect(await evidence({})).toBe(4);
        expect(await evidence({ filter: [customer('c-1')] })).toBe(3);
        expect(await evidence({ filter: [customer('c-1'), { kind: 'error', value: false }] })).toBe(2);
        expect(await evidence({ filter: [{ kind: 'error', value: true }], scope: 'session' })).toBe(1);
        expect(
          await evidence({
            filter: [{ kind: 'field', field: { column: 'output', keys: ['customer', 'id'] }, value: 'c-2' }],
          }),
        ).toBe(1);
        expect(await evidence({ aggregate: 'sum', field: balance })).toBe(137);
        expect(await evidence({ aggregate: 'sum', field: balance, filter: [customer('c-1')] })).toBe(130);
        expect(await evidence({ aggregate: 'exists', actionType: 'other_tool' })).toBe(0);
        expect(await evidence({ windowMs: 0, scope: 'session' })).toBe(0);
        // An action's history does not see evidence, nor evidence history actions.
        expect(await store().queryActionHistory(judged.id, query({ actionType: 'lookup' }))).toBe(0);
        expect(await evidence({ actionType: 'refund' })).toBe(0);
        await expect(evidence({ filter: [{ kind: 'released', value: true }] })).rejects.toThrow(
          'A history query over evidence cannot use {"kind":"released","value":true}.',
        );
      },
    );

    check('an unknown action fails', async () => {
      const answer = store().queryActionHistory('act_missing', query());
      await expect(answer).rejects.toBeInstanceOf(UnknownRecordError);
      await expect(answer).rejects.toThrow('No action act_missing: its history cannot be read.');
    });
  });
}
