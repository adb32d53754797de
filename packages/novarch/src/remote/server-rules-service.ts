import type {
  ListedRuleSet,
  RulesPush,
  RulesPushOutcome,
  RulesService,
  ShownRuleSet,
} from '../operations/rules-service.js';
import type { RemoteRules } from './remote-rules.js';

/** Runs `work` on the server's rules client, turning its errors into the operator's. */
export type CallRules = <T>(work: (rules: RemoteRules) => Promise<T>) => Promise<T>;

/**
 * The rules of a tenant on a Novarch server (`--server URL --tenant TENANT`), through its
 * `/v1/rules` routes; versions are named `tenant/team vN`.
 */
export class ServerRulesService implements RulesService {
  readonly server: string;
  readonly #tenant: string | undefined;
  readonly #call: CallRules;

  /** `tenant` may be absent only for `list` (then every tenant the token sees). */
  constructor(server: string, tenant: string | undefined, call: CallRules) {
    this.server = server;
    this.#tenant = tenant;
    this.#call = call;
  }

  async push(push: RulesPush): Promise<RulesPushOutcome> {
    const { created, ruleSet } = await this.#call((rules) =>
      rules.push(this.#tenant ?? '', push.team, push.source),
    );
    return { created, ruleSet, version: `${ruleSet.tenantId}/${ruleSet.team} v${ruleSet.version}` };
  }

  list(team: string | undefined): Promise<ListedRuleSet[]> {
    return this.#call((rules) => rules.list({ tenantId: this.#tenant, teamId: team }));
  }

  show(team: string, version: number | undefined): Promise<ShownRuleSet> {
    return this.#call((rules) => rules.show(this.#tenant ?? '', team, version));
  }

  async diff(team: string, from: number, to: number): Promise<[ShownRuleSet, ShownRuleSet]> {
    const diffed = await this.#call((rules) => rules.diff(this.#tenant ?? '', team, from, to));
    const named = (set: ShownRuleSet) => ({ ...set, team: `${set.tenantId}/${set.team}` });
    return [named(diffed.from), named(diffed.to)];
  }
}
