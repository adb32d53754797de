import { z } from 'zod';

/** What a violation of a rule leads to: `kill` latches the session, `hold` waits for an operator. */
export type ViolationEffect = 'kill' | 'hold';

/**
 * `enforce` (the default): a violation has its effect. `monitor` (shadow mode): the rule is
 * evaluated on every write it applies to and its outcome is recorded in the verdict's `shadow`
 * citations ("would have held / killed"), with no effect on the verdict.
 */
export type RuleMode = 'enforce' | 'monitor';

/** One team rule, as loaded from a rules file. */
export interface Rule {
  /** Cited in verdicts, e.g. `TEAM-2`. Unique within a rules file. */
  id: string;
  /** Bumped when the rule's meaning changes; named in verdict rationales. */
  version: number;
  /** The rule in plain English (what the LLM judge applies when there is no condition). */
  description: string;
  /** Action types the rule applies to; each one is declared in the rule set's `actionTypes`. */
  appliesTo: string[];
  onViolation: ViolationEffect;
  /** A CEL expression over `action`, `evidence` and `session`: true = satisfied, false = violated. */
  condition?: string;
  /** How many distinct operators must approve a hold of this rule (a hold rule only; default 1). */
  approvals?: number;
  /** The approver groups whose members may decide a hold of this rule (a hold rule only; default: any operator). */
  approvers?: string[];
  /** Absent means `enforce`. A `monitor` rule needs a condition (checked at load). */
  mode?: RuleMode;
}

/** The most approvals a rule may ask for. */
export const MAX_APPROVALS = 10;

/** One team's rules file: the action types its agents may request and the rules that judge them. */
export interface RuleSet {
  team: string;
  actionTypes: string[];
  rules: Rule[];
  /** The file it was loaded from, when it came from one (for stored rules: e.g. `cs-ops v3 (stored)`). */
  file?: string;
  /**
   * The version the store gave it (`novarch rules push`); null or absent for rules loaded from a
   * file or built in code. Verdicts cite it.
   */
  version?: number | null;
  /**
   * sha256 (hex) of its canonical content (`rulesContentHash` of the file's text). Absent for a
   * rule set built in code: verdicts then cite the hash of its JSON (`ruleSetContentHash`).
   */
  contentHash?: string;
}

const name = z.string().trim().min(1);

/** The YAML shape of a rules file (snake_case, strict: unknown keys are errors). */
export const RulesFileSchema = z.strictObject({
  team: name,
  action_types: z.array(name).min(1),
  rules: z.array(
    z.strictObject({
      id: z
        .string()
        .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, 'a rule id is letters, digits and - _ . : (e.g. TEAM-1)'),
      version: z.int().min(1),
      description: name,
      applies_to: z.array(name).min(1),
      on_violation: z.enum(['kill', 'hold']),
      condition: name.optional(),
      approvals: z.int().min(1).max(MAX_APPROVALS).optional(),
      approvers: z
        .array(
          z
            .string()
            .regex(
              /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
              'an approver group is 1-64 letters, digits and . _ - (e.g. finance-leads)',
            ),
        )
        .min(1)
        .optional(),
      mode: z.enum(['enforce', 'monitor']).optional(),
    }),
  ),
});

/** Converts a validated rules file to the typed RuleSet; `origin` says which version and content it is. */
export function toRuleSet(
  data: z.output<typeof RulesFileSchema>,
  file: string,
  origin?: { version: number | null; contentHash: string },
): RuleSet {
  return {
    team: data.team,
    actionTypes: data.action_types,
    rules: data.rules.map((rule) => ({
      id: rule.id,
      version: rule.version,
      description: rule.description,
      appliesTo: rule.applies_to,
      onViolation: rule.on_violation,
      ...(rule.condition === undefined ? {} : { condition: rule.condition }),
      ...(rule.approvals === undefined ? {} : { approvals: rule.approvals }),
      ...(rule.approvers === undefined ? {} : { approvers: [...new Set(rule.approvers)] }),
      ...(rule.mode === undefined ? {} : { mode: rule.mode }),
    })),
    file,
    ...(origin === undefined ? {} : { version: origin.version, contentHash: origin.contentHash }),
  };
}
