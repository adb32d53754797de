import { RulesError } from '../errors.js';
import type { RuleSetStore } from '../model/novarch-store.js';
import type { RuleSetPushResult, StoredRuleSet } from '../model/stored-rule-set.js';
import { validateRulesSource } from './load-rules-file.js';
import type { RuleSet } from './rule-set.js';

/** Where the engine finds a team's rules when they are data (see `storedRuleSource`). */
export interface RuleSource {
  /** The rule sets that judge the writes of `teamId` now (empty: the team has none). */
  rulesFor(teamId: string): Promise<readonly RuleSet[]>;
}

/** How a stored rule set is named in messages and in `RuleSet.file`. */
export function storedRulesName(team: string, version: number): string {
  return `${team} v${version} (stored)`;
}

/**
 * The `RuleSet` of a stored version, validated as a rules file is (throws its `RulesError`): its
 * `version` and `contentHash` are the stored ones, so verdicts cite them.
 */
export function ruleSetFromStored(stored: StoredRuleSet): RuleSet {
  const name = storedRulesName(stored.team, stored.version);
  const validation = validateRulesSource(stored.content, name, stored.version);
  if (validation.ruleSet === undefined) throw new RulesError(validation.issues);
  if (validation.ruleSet.team !== stored.team) {
    throw new RulesError([
      {
        file: name,
        path: 'team',
        message: `is "${validation.ruleSet.team}", but it is stored as the rules of team "${stored.team}"`,
        hint: 'push the file again with the team it names',
      },
    ]);
  }
  return validation.ruleSet;
}

/**
 * A `RuleSource` over the store's pushed rules: each judgement uses the team's latest version,
 * so a push takes effect at the next write, in every process sharing the store. Parsed versions
 * are kept by content hash (parsing and compiling conditions is the costly part; the look-up of
 * the latest version is one indexed query).
 */
export function storedRuleSource(store: RuleSetStore): RuleSource {
  const parsed = new Map<string, RuleSet>();
  return {
    async rulesFor(teamId) {
      const stored = await store.getRuleSet(teamId);
      if (stored === undefined) return [];
      const key = `${stored.team}\u0000${stored.version}\u0000${stored.contentHash}`;
      let ruleSet = parsed.get(key);
      if (ruleSet === undefined) {
        ruleSet = ruleSetFromStored(stored);
        if (parsed.size >= 1000) parsed.clear();
        parsed.set(key, ruleSet);
      }
      return [ruleSet];
    },
  };
}

/** What `pushRules` pushes. */
export interface RulesPush {
  /** The rules file's text. */
  source: string;
  /** What messages call it, e.g. its path. */
  name: string;
  /** The team to push for; default the file's `team:`. A different team is refused. */
  team?: string;
  /** Who pushes it (an operator's name, or the server's authenticated caller). */
  pushedBy: string;
}

/**
 * Validates a rules file and stores it as the next version of its team's rules (see
 * `RuleSetStore.pushRuleSet`: identical content to the latest version stores nothing). Throws a
 * `RulesError` listing every problem of an invalid file, or a team other than the file's.
 */
export async function pushRules(store: RuleSetStore, push: RulesPush): Promise<RuleSetPushResult> {
  const validation = validateRulesSource(push.source, push.name);
  if (validation.ruleSet === undefined) throw new RulesError(validation.issues);
  const team = push.team ?? validation.ruleSet.team;
  if (team !== validation.ruleSet.team) {
    throw new RulesError([
      {
        file: push.name,
        path: 'team',
        message: `is "${validation.ruleSet.team}", but the rules are pushed for team "${team}"`,
        hint: `push it for team "${validation.ruleSet.team}", or change team: in the file to "${team}"`,
      },
    ]);
  }
  const latest = await store.getRuleSet(team);
  if (latest !== undefined)
    requireVersionedModeChanges(ruleSetFromStored(latest), validation.ruleSet, push.name);
  return store.pushRuleSet({ team, content: push.source, pushedBy: push.pushedBy });
}

/**
 * Switching a rule between `monitor` and `enforce` is a change of what it does: the rule's
 * `version:` must change with it, so verdicts before and after cite different rule versions (and
 * the push itself is a new, attributed version of the team's rules).
 */
function requireVersionedModeChanges(before: RuleSet, after: RuleSet, name: string): void {
  const previous = new Map(before.rules.map((rule) => [rule.id, rule]));
  const issues = after.rules.flatMap((rule, index) => {
    const old = previous.get(rule.id);
    const from = old?.mode ?? 'enforce';
    const to = rule.mode ?? 'enforce';
    if (old === undefined || from === to || old.version !== rule.version) return [];
    return [
      {
        file: name,
        path: `rules[${index}].version`,
        message: `rule ${rule.id} switches from mode ${from} to ${to} but keeps version ${rule.version} (stored in ${before.file ?? 'the latest version'})`,
        hint: `bump its version to ${rule.version + 1}: verdicts cite the rule version, so the switch shows in every one of them`,
      },
    ];
  });
  if (issues.length > 0) throw new RulesError(issues);
}
