import { describe, expect } from 'vitest';
import { type ConformanceContext, recordRefund, scope } from './conformance-context.js';

/** `within`: listings scoped to tenants (and teams) in the query, as a server's credential sees them. */
export function describeWithinScopeCases({ store, check }: ConformanceContext): void {
  describe('listings within tenants and teams', () => {
    async function threeSessions() {
      const acmeSupport = await store().createSession(scope({ tenantId: 'acme', teamId: 'support' }), 60);
      const acmeSales = await store().createSession(scope({ tenantId: 'acme', teamId: 'sales' }), 60);
      const globex = await store().createSession(scope({ tenantId: 'globex', teamId: 'support' }), 60);
      for (const session of [acmeSupport, acmeSales, globex])
        await store().createHold(
          (await recordRefund(store(), session)).id,
          session.id,
          new Date(Date.now() + 60_000),
        );
      return { acmeSupport, acmeSales, globex };
    }
    const ids = (records: readonly { id: string }[]) => records.map((record) => record.id);
    const sessionsOf = (holds: readonly { sessionId: string }[]) => holds.map((hold) => hold.sessionId);

    check('a tenant, a team of a tenant, several, none', async () => {
      const { acmeSupport, acmeSales, globex } = await threeSessions();
      const acme = [{ tenantId: 'acme' }];
      const support = [{ tenantId: 'acme', teamId: 'support' }];
      const both = [{ tenantId: 'acme', teamId: 'sales' }, { tenantId: 'globex' }];
      expect(ids(await store().listSessions({ within: acme }))).toEqual([acmeSupport.id, acmeSales.id]);
      expect(ids(await store().listSessions({ within: support }))).toEqual([acmeSupport.id]);
      expect(ids(await store().listSessions({ within: both }))).toEqual([acmeSales.id, globex.id]);
      expect(await store().listSessions({ within: [] })).toEqual([]);
      expect(sessionsOf(await store().listHolds({ status: 'pending', within: acme }))).toEqual([
        acmeSupport.id,
        acmeSales.id,
      ]);
      expect(sessionsOf(await store().listHolds({ within: support }))).toEqual([acmeSupport.id]);
      expect(await store().listHolds({ within: [] })).toEqual([]);
      expect((await store().audit({ within: both })).map((entry) => entry.session.id)).toEqual([
        acmeSales.id,
        globex.id,
      ]);
      expect(await store().audit({ within: [] })).toEqual([]);
    });

    check("an audit's limit counts only the entries within", async () => {
      const { acmeSupport } = await threeSessions();
      // Globex's activity after acme's never pushes acme's entry out of acme's page.
      const globex = await store().createSession(scope({ tenantId: 'globex' }), 60);
      for (let index = 0; index < 3; index++) await recordRefund(store(), globex);
      const [entry, ...rest] = await store().audit({
        within: [{ tenantId: 'acme', teamId: 'support' }],
        limit: 1,
      });
      expect(rest).toEqual([]);
      expect(entry?.session.id).toBe(acmeSupport.id);
    });
  });
}
