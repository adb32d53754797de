import { createHash } from 'node:crypto';
import type { RuleReference, RuleSetReference, Verdict } from '../model/records.js';
import type { RuleSet } from './rule-set.js';

/**
 * The content hash a verdict cites for `ruleSet`: its `contentHash` (the file's canonical text),
 * or for a rule set built in code, sha256 of its JSON (team, action types, rules; not `file`).
 */
export function ruleSetContentHash(ruleSet: RuleSet): string {
  if (ruleSet.contentHash !== undefined) return ruleSet.contentHash;
  const json = JSON.stringify({ team: ruleSet.team, actionTypes: ruleSet.actionTypes, rules: ruleSet.rules });
  return createHash('sha256').update(json, 'utf8').digest('hex');
}

/** How a verdict names `ruleSet`: its team, stored version (null for a file) and content hash. */
export function ruleSetReference(ruleSet: RuleSet): RuleSetReference {
  return { team: ruleSet.team, version: ruleSet.version ?? null, contentHash: ruleSetContentHash(ruleSet) };
}

/**
 * `verdict` with the rule sets it was judged by: `ruleSets`, those of the session's team (the
 * only ones the judge reads), and `rules`, each cited rule id with its version and rule set. A
 * rule id found in several of the team's rule sets is cited once per set.
 */
export function citeRuleSets(verdict: Verdict, rules: readonly RuleSet[], teamId: string): Verdict {
  const teamSets = rules.filter((set) => set.team === teamId);
  const ruleSets = teamSets.map(ruleSetReference);
  const cited: RuleReference[] = verdict.citations.ruleIds.flatMap((id) =>
    teamSets.flatMap((set, index) =>
      set.rules
        .filter((rule) => rule.id === id)
        .map((rule) => ({ id, version: rule.version, ruleSet: ruleSets[index] ?? ruleSetReference(set) })),
    ),
  );
  return { ...verdict, citations: { ...verdict.citations, ruleSets, rules: cited } };
}
