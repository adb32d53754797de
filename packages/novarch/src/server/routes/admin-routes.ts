import { z } from 'zod';
import type { IdentityStore } from '../../identity/identity-store.js';
import { ALL_TENANTS, type Grant, type OperatorPrincipal, parseGrant } from '../../identity/principal.js';
import { checkOperatorName } from '../../operations/governed-process.js';
import {
  AgentKeyInfoSchema,
  CreatedKeySchema,
  CreatedOperatorSchema,
  OperatorTokenInfoSchema,
} from '../../wire/identity-schemas.js';
import { CreateKeyBodySchema, CreateOperatorBodySchema } from '../../wire/request-schemas.js';
import { notFound, ProblemError } from '../problem-error.js';
import { defineRoute } from '../route-spec.js';
import { IdParams, operatorOf } from './route-helpers.js';

/** Whether the admin's grants cover a whole tenant, or every grant of `grant`'s reach. */
function covers(admin: OperatorPrincipal, grant: Grant): boolean {
  return admin.grants.some(
    (own) =>
      own.tenantId === ALL_TENANTS ||
      (own.tenantId === grant.tenantId && (own.teamId === undefined || own.teamId === grant.teamId)),
  );
}

/** An admin manages the keys of tenants it holds whole (a team grant does not make it an admin of the tenant). */
function coversTenant(admin: OperatorPrincipal, tenantId: string): boolean {
  return covers(admin, { tenantId }) && admin.grants.some((own) => own.teamId === undefined);
}

/**
 * The agent keys a new token may not decide for: each must be a key of a tenant the admin holds
 * whole (another tenant's key is answered as unknown, never confirmed).
 */
async function keysWithin(
  identities: IdentityStore,
  admin: OperatorPrincipal,
  ids: readonly string[] | undefined,
): Promise<string[] | undefined> {
  if (ids === undefined) return undefined;
  for (const id of ids) {
    const key = await identities.findAgentKey(id);
    if (key === undefined || !coversTenant(admin, key.tenantId))
      throw new ProblemError(
        400,
        'Bad Request',
        `body.notForKeys: no agent key ${id} in this admin's tenants (pass a key's id, nva_…, as \`novarch keys list\` shows it)`,
      );
  }
  return [...ids];
}

export const ADMIN_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/v1/admin/keys',
    operationId: 'listAgentKeys',
    summary: "The agent keys of the admin's tenants (never their secrets)",
    access: 'admin',
    response: { json: z.array(AgentKeyInfoSchema) },
    async handle(request) {
      const admin = operatorOf(request);
      return (await request.services.identities.listAgentKeys()).filter((key) =>
        coversTenant(admin, key.tenantId),
      );
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/admin/keys',
    operationId: 'createAgentKey',
    summary: 'Create an agent key for a tenant: the secret is in this answer only',
    access: 'admin',
    body: CreateKeyBodySchema,
    status: 201,
    response: { json: CreatedKeySchema },
    async handle(request) {
      const admin = operatorOf(request);
      const { tenantId, name, agentId, teamIds } = request.body;
      if (!coversTenant(admin, tenantId))
        throw new ProblemError(403, 'Forbidden', `this admin token is not granted tenant "${tenantId}"`);
      const tenants = request.services.tenants;
      if (tenants !== undefined && !(tenantId in tenants))
        throw new ProblemError(
          400,
          'Bad Request',
          `tenant "${tenantId}" is not served here: add it under server.tenants in novarch.yaml`,
        );
      const created = await request.services.identities.createAgentKey({
        tenantId,
        name,
        ...(agentId === undefined ? {} : { agentId }),
        ...(teamIds === undefined ? {} : { teamIds }),
      });
      return { key: created.info, secret: created.secret };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/admin/keys/{id}/revoke',
    operationId: 'revokeAgentKey',
    summary: 'Revoke an agent key: its next request gets 401',
    access: 'admin',
    params: IdParams,
    response: { json: AgentKeyInfoSchema },
    async handle(request) {
      const admin = operatorOf(request);
      const { identities } = request.services;
      const key = await identities.findAgentKey(request.params.id);
      if (key === undefined || !coversTenant(admin, key.tenantId))
        throw notFound('agent key', request.params.id);
      return (await identities.revokeAgentKey(key.id)) ?? key;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/admin/operators',
    operationId: 'listOperatorTokens',
    summary: "Operator tokens whose grants are all within the admin's (never their secrets)",
    access: 'admin',
    response: { json: z.array(OperatorTokenInfoSchema) },
    async handle(request) {
      const admin = operatorOf(request);
      return (await request.services.identities.listOperatorTokens()).filter((token) =>
        token.grants.every((grant) => covers(admin, grant)),
      );
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/admin/operators',
    operationId: 'createOperatorToken',
    summary: "Create an operator token (grants within the admin's own): the secret is in this answer only",
    access: 'admin',
    body: CreateOperatorBodySchema,
    status: 201,
    response: { json: CreatedOperatorSchema },
    async handle(request) {
      const admin = operatorOf(request);
      const grants: Grant[] = [];
      for (const text of request.body.grants) {
        const grant = parseGrant(text);
        if (typeof grant === 'string') throw new ProblemError(400, 'Bad Request', `body.grants: ${grant}`);
        if (!covers(admin, grant))
          throw new ProblemError(
            403,
            'Forbidden',
            `this admin token may not grant "${text}": it is not granted it`,
          );
        grants.push(grant);
      }
      const name = checkOperatorName(request.body.name);
      const created = await request.services.identities.createOperatorToken({
        name,
        role: request.body.role,
        grants,
        groups: request.body.groups,
        notForKeys: await keysWithin(request.services.identities, admin, request.body.notForKeys),
      });
      return { token: created.info, secret: created.secret };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/admin/operators/{id}/revoke',
    operationId: 'revokeOperatorToken',
    summary: 'Revoke an operator token: its next request gets 401',
    access: 'admin',
    params: IdParams,
    response: { json: OperatorTokenInfoSchema },
    async handle(request) {
      const admin = operatorOf(request);
      const { identities } = request.services;
      const token = await identities.findOperatorToken(request.params.id);
      if (token === undefined || !token.grants.every((grant) => covers(admin, grant)))
        throw notFound('operator token', request.params.id);
      return (await identities.revokeOperatorToken(token.id)) ?? token;
    },
  }),
];
