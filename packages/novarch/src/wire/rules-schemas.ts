import { z } from 'zod';

/** One version of a tenant's team rules, without its text. */
export const RuleSetSummarySchema = z.object({
  tenantId: z.string(),
  team: z.string(),
  version: z.int().min(1),
  contentHash: z.string().regex(/^[0-9a-f]{64}$/),
  pushedAt: z.string(),
  /** The name of the admin token that pushed it. */
  pushedBy: z.string(),
});

/** One version with its text (the rules file as stored, canonical form). */
export const RuleSetVersionSchema = RuleSetSummarySchema.extend({ content: z.string() });

/** What a push did: a new version, or the latest already had this content (`created: false`). */
export const RuleSetPushAnswerSchema = z.object({ created: z.boolean(), ruleSet: RuleSetSummarySchema });

/** Two versions and a unified line diff of them (plain text, three lines of context). */
export const RuleSetDiffSchema = z.object({
  from: RuleSetVersionSchema,
  to: RuleSetVersionSchema,
  diff: z.string(),
});
