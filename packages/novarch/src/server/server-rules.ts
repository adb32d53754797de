import type { RuleSetStore } from '../model/novarch-store.js';
import type { StoredRuleSet, StoredRuleSetSummary } from '../model/stored-rule-set.js';
import type { RuleSet } from '../rules/rule-set.js';
import { type RuleSource, storedRuleSource } from '../rules/stored-rules.js';

/**
 * How the store names a team's rules pushed to a server: `TENANT/TEAM`. A session's team is a
 * team of its tenant, so two tenants' teams of one name have their own rules (tenant names have
 * no `/`, so the key is unambiguous).
 */
export function tenantTeamKey(tenantId: string, teamId: string): string {
  return `${tenantId}/${teamId}`;
}

/** The tenant and team of a store key written by `tenantTeamKey`, or undefined for a plain team. */
export function parseTenantTeamKey(key: string): { tenantId: string; teamId: string } | undefined {
  const slash = key.indexOf('/');
  if (slash <= 0 || slash === key.length - 1) return undefined;
  return { tenantId: key.slice(0, slash), teamId: key.slice(slash + 1) };
}

/**
 * One tenant's rule sets as a `RuleSetStore` of its own: teams are named as in its rules files and
 * sessions (`cs-ops`), and stored as `TENANT/TEAM`. `pushRules` and `storedRuleSource` work on it
 * unchanged (a file's `team:` is checked against the plain team).
 */
export function tenantRuleSets(store: RuleSetStore, tenantId: string): RuleSetStore {
  const prefix = `${tenantId}/`;
  const plain = <T extends { team: string }>(set: T): T => ({ ...set, team: set.team.slice(prefix.length) });
  return {
    async pushRuleSet(push) {
      const result = await store.pushRuleSet({ ...push, team: tenantTeamKey(tenantId, push.team) });
      return { ...result, ruleSet: plain(result.ruleSet) };
    },
    async getRuleSet(team, version): Promise<StoredRuleSet | undefined> {
      const found = await store.getRuleSet(tenantTeamKey(tenantId, team), version);
      return found === undefined ? undefined : plain(found);
    },
    async listRuleSets(filter = {}): Promise<StoredRuleSetSummary[]> {
      const sets = await store.listRuleSets(
        filter.team === undefined ? {} : { team: tenantTeamKey(tenantId, filter.team) },
      );
      return sets.filter((set) => set.team.startsWith(prefix)).map(plain);
    },
  };
}

/**
 * The rules the server judges a tenant's writes by, for each team, the first that has any:
 * 1. the rules pushed to this server for that tenant's team (`POST /v1/rules/{tenantId}/{teamId}`,
 *    `novarch rules push --server`): its latest version;
 * 2. the rules pushed for the team to the store directly (`novarch rules push --store …`, no
 *    tenant: they apply to the team of every tenant): its latest version;
 * 3. the rules files listed under `rules:` in `novarch.yaml` for that team;
 * 4. none: the engine's default for a team without rules (the write is killed).
 * A push replaces the lower levels for that team as a whole (rules are not merged), and takes
 * effect at the team's next write. Parsed versions are kept by content hash.
 */
export class ServerRules {
  readonly #store: RuleSetStore;
  readonly #files: readonly RuleSet[];
  readonly #deployment: RuleSource;
  readonly #tenants = new Map<string, RuleSource>();

  constructor(store: RuleSetStore, files: readonly RuleSet[]) {
    this.#store = store;
    this.#files = files;
    this.#deployment = storedRuleSource(store);
  }

  /** The rule source of one tenant's sessions. */
  forTenant(tenantId: string): RuleSource {
    let pushed = this.#tenants.get(tenantId);
    if (pushed === undefined) {
      pushed = storedRuleSource(tenantRuleSets(this.#store, tenantId));
      if (this.#tenants.size >= 1000) this.#tenants.clear();
      this.#tenants.set(tenantId, pushed);
    }
    const tenant = pushed;
    return {
      rulesFor: async (teamId) => {
        const own = await tenant.rulesFor(teamId);
        if (own.length > 0) return own;
        // A team named like a store key (`globex/cs-ops`) would read another tenant's pushed rules
        // as if they were the deployment's, and a hold's rationale would quote them. Team ids over
        // HTTP cannot hold a `/`; a session stored otherwise gets no rules here (the engine's default).
        if (teamId.includes('/')) return [];
        const deployment = await this.#deployment.rulesFor(teamId);
        if (deployment.length > 0) return deployment;
        return this.#files.filter((set) => set.team === teamId);
      },
    };
  }
}
