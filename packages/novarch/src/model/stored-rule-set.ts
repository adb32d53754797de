/** A team's rules file as pushed to the store (`novarch rules push`): one version of it. */
export interface StoredRuleSet {
  team: string;
  /** 1 for the team's first push, then one more per push whose content differs. */
  version: number;
  /** The file's canonical text (see `canonicalRulesContent`). */
  content: string;
  /** sha256 (hex) of `content`. */
  contentHash: string;
  pushedAt: string;
  /** Who pushed it (the operator's name, or the server's caller). */
  pushedBy: string;
  /** The OS account of the process that stored it (absent when the store does not know it). */
  pushedByOsUser?: string;
}

/** One version of a team's rules, without its text (`NovarchStore.listRuleSets`). */
export type StoredRuleSetSummary = Omit<StoredRuleSet, 'content'>;

/** What `NovarchStore.pushRuleSet` stores. The caller has validated `content` as a rules file. */
export interface RuleSetPush {
  team: string;
  /** The rules file's text; stored in canonical form. */
  content: string;
  pushedBy: string;
}

/**
 * What a push did: `created` a new version, or found the team's latest version already has this
 * content (`created: false`, that version returned unchanged).
 */
export interface RuleSetPushResult {
  ruleSet: StoredRuleSet;
  created: boolean;
}
