import type { Kysely } from 'kysely';
import type { WithinScope } from '../model/novarch-store.js';
import type { StoreTables } from './store-tables.js';

/**
 * The ids of the sessions within `within`, as a subquery (`session_id in (…)`): a listing scoped
 * to a tenant reads that tenant's rows only, by index, however many rows other tenants have.
 * An empty list matches no session.
 */
export function sessionIdsWithin(db: Kysely<StoreTables>, within: readonly WithinScope[]) {
  return db
    .selectFrom('sessions')
    .select('sessions.id')
    .where((eb) =>
      within.length === 0
        ? eb(eb.lit<number>(1), '=', eb.lit<number>(0))
        : eb.or(
            within.map((scope) =>
              scope.teamId === undefined
                ? eb('sessions.tenant_id', '=', scope.tenantId)
                : eb.and([
                    eb('sessions.tenant_id', '=', scope.tenantId),
                    eb('sessions.team_id', '=', scope.teamId),
                  ]),
            ),
          ),
    );
}
