import { z } from 'zod';
import { ABORTED_HOLD_RATIONALE } from '../../engine/novarch-engine.js';
import { decideHoldAsOperator } from '../../operations/decide-hold-as-operator.js';
import { listHoldSummaries, loadHoldDetail } from '../../operations/hold-operations.js';
import {
  HoldDetailSchema,
  HoldRecordSchema,
  HoldSummarySchema,
  OperatorDecisionResultSchema,
} from '../../wire/record-schemas.js';
import { DecisionBodySchema, HoldsQuerySchema, WaitBodySchema } from '../../wire/request-schemas.js';
import { defineRoute } from '../route-spec.js';
import { waitForHold } from '../wait-for-hold.js';
import { HoldParams, operatorOf, requestSignal, SERVER_STORE_LABEL, scopedOf } from './route-helpers.js';

/** A long-poll's default length: shorter than common proxy idle timeouts. */
const DEFAULT_WAIT_MS = 25_000;

const STATUS = { approve: 'approved', deny: 'denied', skip: 'skipped' } as const;

export const HOLD_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/v1/holds',
    operationId: 'listHolds',
    summary: 'Holds this credential sees, oldest first, each with its action and (pending) its state',
    access: 'authenticated',
    query: HoldsQuerySchema,
    response: { json: z.array(HoldSummarySchema) },
    handle: (request) =>
      listHoldSummaries(
        scopedOf(request),
        { status: request.query.status, sessionId: request.query.sessionId },
        new Date(),
      ),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/holds/{holdId}',
    operationId: 'getHold',
    summary: 'A hold with its session, action, verdict citations and the cited evidence',
    access: 'authenticated',
    params: HoldParams,
    response: { json: HoldDetailSchema },
    async handle(request) {
      const store = scopedOf(request);
      await store.requireHold(request.params.holdId);
      return loadHoldDetail(store, request.params.holdId, SERVER_STORE_LABEL, new Date());
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/holds/{holdId}/wait',
    operationId: 'waitForHold',
    summary:
      'Long-poll a hold: answers once it is decided, at its deadline (closed as timed_out), or after timeoutMs (still pending: poll again)',
    access: 'agent',
    params: HoldParams,
    body: WaitBodySchema,
    response: { json: HoldRecordSchema },
    async handle(request) {
      const store = scopedOf(request);
      const hold = await store.requireHold(request.params.holdId);
      // Only the engine that opened the session waits (its check-ins keep the hold alive).
      await store.requireWritable(hold.sessionId);
      const session = await store.requireSession(hold.sessionId);
      const { events } = request.services;
      return waitForHold(store, hold, {
        timeoutMs: request.body.timeoutMs ?? DEFAULT_WAIT_MS,
        waiter: request.body.waiter,
        signal: requestSignal(request),
        events,
        onTimedOut: (closed) => events.emitHold('hold-decided', session, closed),
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/holds/{holdId}/abort',
    operationId: 'abortHold',
    summary:
      'The agent stopped waiting (its call was aborted): the hold closes as timed_out, the write never runs',
    access: 'agent',
    params: HoldParams,
    response: { json: HoldRecordSchema },
    async handle(request) {
      const store = scopedOf(request);
      const hold = await store.requireHold(request.params.holdId);
      const closed = await store.decideHold(hold.id, 'timed_out', 'novarch', ABORTED_HOLD_RATIONALE);
      if (hold.status === 'pending')
        request.services.events.emitHold('hold-decided', await store.requireSession(hold.sessionId), closed);
      return closed;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/holds/{holdId}/decision',
    operationId: 'decideHold',
    summary:
      "An operator approves, denies (rationale required) or skips a hold; stored under the token's operator name. A hold whose rules ask several approvals stays pending until that many distinct operators approved (`awaiting` says how many more); the first deny ends it. 409 when it was already decided, nothing waits on it (force closes it as timed_out), this operator already approved it, the token may not decide for the session's agent key, or it is in none of the rule's approver groups",
    access: 'operator',
    params: HoldParams,
    body: DecisionBodySchema,
    response: { json: OperatorDecisionResultSchema },
    async handle(request) {
      const operator = operatorOf(request);
      const store = scopedOf(request);
      const hold = await store.requireHold(request.params.holdId);
      const { body } = request;
      const result = await decideHoldAsOperator(
        store,
        {
          holdId: hold.id,
          status: STATUS[body.decision],
          operator: operator.name,
          rationale: body.rationale,
          force: body.force,
          input: body.input,
          via: 'token',
          groups: operator.groups,
          notForKeys: operator.notForKeys,
        },
        SERVER_STORE_LABEL,
        new Date(),
      );
      request.services.events.emitHold(
        'hold-decided',
        await store.requireSession(hold.sessionId),
        result.hold,
      );
      return result;
    },
  }),
];
