import { OperatorUsageError } from '../errors.js';
import type { NovarchDatabaseStore } from '../model/novarch-store.js';
import type { StoredRuleSet, StoredRuleSetSummary } from '../model/stored-rule-set.js';
import { pushRules } from '../rules/stored-rules.js';
import { closestIds } from './closest-ids.js';

/** A version as the rules commands list it: a store's, or a server's (with its tenant). */
export type ListedRuleSet = StoredRuleSetSummary & { tenantId?: string };

/** A version with its text, as `rules show` and `rules diff` read it. */
export type ShownRuleSet = StoredRuleSet & { tenantId?: string };

/** A rules file to push: validated by the caller, pushed as the next version of its team. */
export interface RulesPush {
  /** The file's absolute path (the name in the problems of an invalid file). */
  absolute: string;
  source: string;
  team: string;
}

/** What a push did: a new version, or the latest already had this content (`created: false`). */
export interface RulesPushOutcome {
  created: boolean;
  ruleSet: ListedRuleSet;
  /** The version as messages name it: `cs-ops v3`, or `acme/cs-ops v3` on a server. */
  version: string;
}

/**
 * What `novarch rules push|list|show|diff` do, on a store (`StoreRulesService`) or through a
 * server (`ServerRulesService` in remote/): each command calls one method, whichever it is.
 */
export interface RulesService {
  /** The server's URL when the rules are a server's (messages say so); undefined on a store. */
  readonly server: string | undefined;
  push(push: RulesPush): Promise<RulesPushOutcome>;
  list(team: string | undefined): Promise<ListedRuleSet[]>;
  /** One version of the team's rules (default the latest). */
  show(team: string, version: number | undefined): Promise<ShownRuleSet>;
  diff(team: string, from: number, to: number): Promise<[ShownRuleSet, ShownRuleSet]>;
}

/** Runs `work` on the store and closes it; `where` names the store in messages (no password). */
export type OnRulesStore = <T>(
  work: (store: NovarchDatabaseStore, where: string) => Promise<T>,
) => Promise<T>;

/** The rules of a store: versions pushed directly, with no tenant. */
export class StoreRulesService implements RulesService {
  readonly server = undefined;
  readonly #onStore: OnRulesStore;
  readonly #pushedBy: () => string;

  /** `pushedBy` names the operator of a push (it throws when there is none). */
  constructor(onStore: OnRulesStore, pushedBy: () => string) {
    this.#onStore = onStore;
    this.#pushedBy = pushedBy;
  }

  async push(push: RulesPush): Promise<RulesPushOutcome> {
    const pushedBy = this.#pushedBy();
    const { ruleSet, created } = await this.#onStore((store) =>
      pushRules(store, { source: push.source, name: push.absolute, team: push.team, pushedBy }),
    );
    const { content: _content, ...summary } = ruleSet;
    return { created, ruleSet: summary, version: `${ruleSet.team} v${ruleSet.version}` };
  }

  list(team: string | undefined): Promise<ListedRuleSet[]> {
    return this.#onStore((store) => store.listRuleSets(team === undefined ? {} : { team }));
  }

  show(team: string, version: number | undefined): Promise<ShownRuleSet> {
    return this.#onStore((store, where) => storedVersion(store, where, team, version));
  }

  async diff(team: string, from: number, to: number): Promise<[ShownRuleSet, ShownRuleSet]> {
    return this.#onStore((store, where) =>
      Promise.all([storedVersion(store, where, team, from), storedVersion(store, where, team, to)]),
    );
  }
}

/** The team's stored version, or a usage error listing what the store has. */
export async function storedVersion(
  store: NovarchDatabaseStore,
  where: string,
  team: string,
  version: number | undefined,
): Promise<StoredRuleSet> {
  const found = await store.getRuleSet(team, version);
  if (found !== undefined) return found;
  const versions = await store.listRuleSets({ team });
  if (versions.length === 0) {
    const teams = [...new Set((await store.listRuleSets()).map((set) => set.team))];
    const closest =
      teams.length === 0
        ? ' It has no rules yet.'
        : ` Teams with rules: ${closestIds(team, teams).join(', ')}.`;
    throw new OperatorUsageError(`No rules of team "${team}" in the store at ${where}.${closest}`);
  }
  throw new OperatorUsageError(
    `Team ${team} has no version ${version} in the store at ${where}: its versions are ${versions.map((set) => `v${set.version}`).join(', ')}.`,
  );
}
