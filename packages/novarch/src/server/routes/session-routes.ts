import { z } from 'zod';
import type { AgentPrincipal } from '../../identity/principal.js';
import { killSessionAsOperator } from '../../operations/session-operations.js';
import { EvidenceRecordSchema, OpenedSessionSchema, SessionRecordSchema } from '../../wire/record-schemas.js';
import {
  EvidenceBodySchema,
  KillBodySchema,
  LatchBodySchema,
  OpenSessionBodySchema,
  SessionsQuerySchema,
} from '../../wire/request-schemas.js';
import { ProblemError } from '../problem-error.js';
import { defineRoute } from '../route-spec.js';
import { engineFor } from '../server-services.js';
import { agentOf, operatorOf, SERVER_STORE_LABEL, SessionParams, scopedOf } from './route-helpers.js';

/** A key bound to an agent (and teams) opens sessions of that agent (and those teams) only. */
function checkKeyBinding(agent: AgentPrincipal, body: { teamId: string; agentId: string }): void {
  if (agent.agentId !== undefined && agent.agentId !== body.agentId)
    throw new ProblemError(
      403,
      'Forbidden',
      `this agent key is bound to agent "${agent.agentId}"; it may not open sessions of agent "${body.agentId}" (create a key for that agent: novarch keys create --agent ${body.agentId})`,
    );
  if (agent.teamIds !== undefined && !agent.teamIds.includes(body.teamId))
    throw new ProblemError(
      403,
      'Forbidden',
      `this agent key is bound to team${agent.teamIds.length === 1 ? '' : 's'} ${agent.teamIds.map((team) => `"${team}"`).join(', ')}; it may not open sessions of team "${body.teamId}"`,
    );
}

export const SESSION_ROUTES = [
  defineRoute({
    method: 'post',
    path: '/v1/sessions',
    operationId: 'openSession',
    summary:
      "Open a governed session in the agent key's tenant (the hold wait negotiated against the window)",
    access: 'agent',
    body: OpenSessionBodySchema,
    status: 201,
    response: { json: OpenedSessionSchema },
    async handle(request) {
      const agent = agentOf(request);
      const { body } = request;
      const tenantId = body.tenantId ?? agent.tenantId;
      if (tenantId !== agent.tenantId)
        throw new ProblemError(
          403,
          'Forbidden',
          `this agent key belongs to tenant "${agent.tenantId}"; it may not open sessions of tenant "${tenantId}"`,
        );
      checkKeyBinding(agent, body);
      const store = scopedOf(request);
      const engine = engineFor(request.services, store, tenantId);
      const session = await engine.openSession(
        { tenantId, teamId: body.teamId, agentId: body.agentId },
        body.maxHoldS,
      );
      const sessionSecret = store.issuedSecret(session.id);
      return sessionSecret === undefined ? session : { ...session, sessionSecret };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/sessions',
    operationId: 'listSessions',
    summary: 'List the sessions this credential sees',
    access: 'authenticated',
    query: SessionsQuerySchema,
    response: { json: z.array(SessionRecordSchema) },
    handle: ({ query, ...request }) =>
      scopedOf({ query, ...request }).listSessions({
        ...(query.tenantId === undefined ? {} : { tenantId: query.tenantId }),
        ...(query.agentId === undefined ? {} : { agentId: query.agentId }),
        ...(query.killed === undefined ? {} : { killed: query.killed === 'true' }),
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/sessions/{sessionId}',
    operationId: 'getSession',
    summary: 'One session (killed ones carry their kill)',
    access: 'authenticated',
    params: SessionParams,
    response: { json: SessionRecordSchema },
    handle: (request) => scopedOf(request).requireSession(request.params.sessionId),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/sessions/{sessionId}/evidence',
    operationId: 'recordEvidence',
    summary: 'Record a read that ran, as evidence later writes are judged on',
    access: 'agent',
    params: SessionParams,
    body: EvidenceBodySchema,
    status: 201,
    response: { json: EvidenceRecordSchema },
    handle: (request) =>
      scopedOf(request).recordEvidence({
        sessionId: request.params.sessionId,
        ...request.body,
        input: request.body.input,
        output: request.body.output,
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/sessions/{sessionId}/evidence',
    operationId: 'listEvidence',
    summary: "A session's evidence, oldest first",
    access: 'authenticated',
    params: SessionParams,
    response: { json: z.array(EvidenceRecordSchema) },
    handle: (request) => scopedOf(request).listEvidence(request.params.sessionId),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/sessions/{sessionId}/latch',
    operationId: 'latchSession',
    summary: "The agent's gate stops its own session (judge kill, hold skipped or timed out, gate)",
    access: 'agent',
    params: SessionParams,
    body: LatchBodySchema,
    response: { json: SessionRecordSchema },
    async handle(request) {
      const store = scopedOf(request);
      const { body } = request;
      const before = await store.requireSession(request.params.sessionId);
      await store.killSession(before.id, body.reason, {
        source: body.source,
        ...(body.actionId === undefined ? {} : { actionId: body.actionId }),
        ...(body.ruleIds === undefined ? {} : { ruleIds: body.ruleIds }),
        ...(body.evidenceIds === undefined ? {} : { evidenceIds: body.evidenceIds }),
      });
      const after = await store.requireSession(before.id);
      if (before.killedAt === undefined) request.services.events.emitKill(after);
      return after;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/sessions/{sessionId}/kill',
    operationId: 'killSession',
    summary:
      "An operator kills a session: the agent's next call is refused (stored as `operator NAME: reason`)",
    access: 'operator',
    params: SessionParams,
    body: KillBodySchema,
    response: { json: SessionRecordSchema },
    async handle(request) {
      const operator = operatorOf(request);
      const store = scopedOf(request);
      await store.requireSession(request.params.sessionId);
      const killed = await killSessionAsOperator(
        store,
        { sessionId: request.params.sessionId, reason: request.body.reason, operator: operator.name },
        SERVER_STORE_LABEL,
      );
      request.services.events.emitKill(killed);
      return killed;
    },
  }),
];
