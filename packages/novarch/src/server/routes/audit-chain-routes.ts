import { z } from 'zod';
import { ALL_TENANTS, type OperatorPrincipal } from '../../identity/principal.js';
import type { AuditChainReport } from '../../model/audit-chain.js';
import type { AuditChainStore } from '../../model/novarch-store.js';
import { AuditVerificationSchema } from '../../wire/audit-chain-schemas.js';
import { ProblemError } from '../problem-error.js';
import { defineRoute } from '../route-spec.js';
import { operatorOf } from './route-helpers.js';

const VerifyQuery = z.object({ tenantId: z.string().min(1).optional() });

/**
 * The chains an operator may verify: a tenant's chain covers every team of the tenant, so only a
 * grant over the whole tenant (or every tenant) reaches it; with it come the rules chains of the
 * tenant's teams (`rules:<tenant>/<team>`, as the server pushes them).
 */
async function verifyAsOperator(
  store: AuditChainStore,
  principal: OperatorPrincipal,
  tenantId: string | undefined,
): Promise<AuditChainReport[]> {
  const everyTenant = principal.grants.some((grant) => grant.tenantId === ALL_TENANTS);
  const wholeTenants = new Set(
    principal.grants.filter((grant) => grant.teamId === undefined).map((grant) => grant.tenantId),
  );
  if (tenantId !== undefined && !everyTenant && !wholeTenants.has(tenantId)) {
    throw new ProblemError(
      403,
      'Forbidden',
      `verifying tenant "${tenantId}" needs a grant over the whole tenant: its chain covers every team of it`,
    );
  }
  if (everyTenant && tenantId === undefined) return store.verifyAuditChains();
  const tenants = tenantId === undefined ? [...wholeTenants].sort() : [tenantId];
  const reports: AuditChainReport[] = [];
  const chains = await store.listAuditChains();
  for (const tenant of tenants) {
    reports.push(...(await store.verifyAuditChains({ tenantId: tenant })));
    for (const chain of chains.filter((name) => name.startsWith(`rules:${tenant}/`)))
      reports.push(...(await store.verifyAuditChains({ team: chain.slice('rules:'.length) })));
  }
  return reports;
}

export const AUDIT_CHAIN_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/v1/audit/verify',
    operationId: 'verifyAudit',
    summary:
      "Checks the audit hash chains this operator may see whole (a tenant's decisions, its teams' rule changes): every edited, deleted, inserted or reordered record or link is a problem",
    access: 'operator',
    query: VerifyQuery,
    response: { json: AuditVerificationSchema },
    handle: async (request) => {
      const chains = await verifyAsOperator(
        request.services.store,
        operatorOf(request),
        request.query.tenantId,
      );
      return { intact: chains.every((chain) => chain.problems.length === 0), chains };
    },
  }),
];
