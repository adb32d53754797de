import { DecisionError } from '../../engine/decision-error.js';
import { errorMessage } from '../../support.js';
import { DecisionSchema, RefusalRecordSchema, ReleaseResultSchema } from '../../wire/record-schemas.js';
import { ProposeActionBodySchema, RefusalBodySchema } from '../../wire/request-schemas.js';
import { notFound, ProblemError } from '../problem-error.js';
import { defineRoute } from '../route-spec.js';
import { engineFor } from '../server-services.js';
import { SessionActionParams, SessionParams, scopedOf } from './route-helpers.js';

export const ACTION_ROUTES = [
  defineRoute({
    method: 'post',
    path: '/v1/sessions/{sessionId}/actions',
    operationId: 'proposeAction',
    summary:
      "Propose a write and get its verdict (pass, kill, or hold: then wait on the hold). With release, a pass is let run atomically with a check of the session's kill",
    access: 'agent',
    params: SessionParams,
    body: ProposeActionBodySchema,
    response: { json: DecisionSchema },
    async handle(request) {
      const store = scopedOf(request);
      const session = await store.requireSession(request.params.sessionId);
      const { deadlineInMs, release, editOf, ...proposed } = request.body;
      const decision = await engineFor(request.services, store, session.tenantId)
        .decide(
          session,
          {
            actionType: proposed.actionType,
            toolName: proposed.toolName,
            input: proposed.input,
            context: proposed.context,
            ...(proposed.reasoning === undefined ? {} : { reasoning: proposed.reasoning }),
          },
          {
            ...(deadlineInMs === undefined ? {} : { deadline: Date.now() + deadlineInMs }),
            ...(release === undefined ? {} : { release }),
            ...(editOf === undefined ? {} : { editOf }),
          },
        )
        .catch(async (error: unknown) => {
          // The action is recorded: its refusal goes on it, so it is never left without a verdict.
          // The answer names the action and whether its refusal is stored, so the client records
          // it on that action when the server could not, and never records a second one.
          if (!(error instanceof DecisionError)) throw error;
          const { actionId } = error;
          const recorded = await store
            .recordRefusal({
              sessionId: session.id,
              source: 'gate',
              actionId,
              citations: {
                ruleIds: [],
                evidenceIds: [],
                rationale: `the server could not decide this write (${errorMessage(error)}); it did not run`,
              },
            })
            .then(
              () => true,
              () => false,
            );
          throw new DecisionError(actionId, error.cause, { refusalRecorded: recorded });
        });
      if (decision.hold?.status === 'pending') {
        request.services.events.emitHold('hold-created', session, decision.hold);
        // In the background: a webhook receiver never delays the verdict (notifyHold never throws).
        request.services.notifier?.notifyHold({
          session,
          action: decision.action,
          hold: decision.hold,
          citations: decision.verdict.citations,
        });
      }
      return decision;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/sessions/{sessionId}/refusals',
    operationId: 'recordRefusal',
    summary: 'Record a call the gate (or the agent’s own permission rules) refused before it ran',
    access: 'agent',
    params: SessionParams,
    body: RefusalBodySchema,
    status: 201,
    response: { json: RefusalRecordSchema },
    handle: (request) => {
      const { body } = request;
      return scopedOf(request).recordRefusal({
        sessionId: request.params.sessionId,
        source: body.source,
        citations: body.citations,
        ...(body.actionId === undefined ? {} : { actionId: body.actionId }),
        ...(body.call === undefined ? {} : { call: { ...body.call, input: body.call.input } }),
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/sessions/{sessionId}/actions/{actionId}/release',
    operationId: 'releaseAction',
    summary:
      'Let a write an operator approved run: atomically with a check that the session was not killed (a kill stored first wins)',
    access: 'agent',
    params: SessionActionParams,
    response: { json: ReleaseResultSchema },
    async handle(request) {
      const store = scopedOf(request);
      const { sessionId, actionId } = request.params;
      await store.requireSession(sessionId);
      const entry = (await store.audit({ sessionId })).find((candidate) => candidate.action.id === actionId);
      if (entry === undefined) throw notFound('action', actionId);
      if (entry.hold?.status !== 'approved')
        throw new ProblemError(
          409,
          'Conflict',
          `action ${actionId} has no approved hold (${entry.hold === undefined ? 'it was never held' : `its hold is ${entry.hold.status}`}): only a write an operator approved is released here`,
        );
      return store.releaseAction({ actionId, sessionId });
    },
  }),
];
