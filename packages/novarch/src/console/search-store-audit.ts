import type { AuditEntry, NovarchStore } from '../model/novarch-store.js';
import type { AuditSearch, ConsoleOperator } from './console-deps.js';
import { operatorCovers, operatorWithin } from './operator-scope.js';

/** The entries the audit page shows at once (it pages through the rest; exports have them all). */
export const AUDIT_PAGE_SIZE = 500;
/** The largest `limit` a search accepts. */
export const AUDIT_SEARCH_MAX = 10_000;

/**
 * The audit trail of the operator's tenants and teams, filtered, oldest first: every matching
 * entry, or the most recent `limit` when a limit is given. The store filters the operator's scope, tenant, team, agent, session and
 * verdict; rule and dates are filtered here.
 */
export async function searchStoreAudit(
  store: NovarchStore,
  operator: ConsoleOperator,
  search: AuditSearch,
): Promise<AuditEntry[]> {
  const from = search.from === undefined ? undefined : Date.parse(search.from);
  const to = search.to === undefined ? undefined : Date.parse(search.to);
  const found: AuditEntry[] = [];
  const scopes = operatorWithin(operator);
  // One query, reading only the operator's tenants and teams (never every tenant's rows).
  const entries = await store.audit({
    ...(scopes === undefined ? {} : { within: scopes }),
    ...(search.tenantId === undefined ? {} : { tenantId: search.tenantId }),
    ...(search.teamId === undefined ? {} : { teamId: search.teamId }),
    ...(search.agentId === undefined ? {} : { agentId: search.agentId }),
    ...(search.sessionId === undefined ? {} : { sessionId: search.sessionId }),
    ...(search.verdict === undefined ? {} : { verdict: search.verdict }),
  });
  for (const entry of entries) {
    if (!operatorCovers(operator, entry.session)) continue;
    if (search.teamId !== undefined && entry.session.teamId !== search.teamId) continue;
    const { ruleId } = search;
    if (
      ruleId !== undefined &&
      !entry.verdicts.some((record) => record.verdict.citations.ruleIds.includes(ruleId))
    )
      continue;
    const at = Date.parse(entry.action.createdAt);
    if ((from !== undefined && at < from) || (to !== undefined && at > to)) continue;
    found.push(entry);
  }
  found.sort((a, b) => a.action.createdAt.localeCompare(b.action.createdAt));
  return search.limit === undefined ? found : found.slice(-Math.min(search.limit, AUDIT_SEARCH_MAX));
}
