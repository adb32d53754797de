import { z } from 'zod';

const IntervalSchema = z.object({
  estimate: z.number(),
  lower: z.number(),
  upper: z.number(),
  confidence: z.number(),
  method: z.string(),
});

/** One rule measured against the humans (`novarch rules calibrate`). */
export const RuleCalibrationSchema = z.object({
  ruleId: z.string(),
  llm: z.boolean(),
  judged: z.int().min(0),
  confusion: z.object({
    both_kill: z.int().min(0),
    rule_kill_human_pass: z.int().min(0),
    rule_pass_human_kill: z.int().min(0),
    both_pass: z.int().min(0),
  }),
  agreement: IntervalSchema.nullable(),
  kappa: z.number().nullable(),
  kappaInterval: IntervalSchema.nullable(),
  needlessHolds: z.int().min(0),
});

/** A team's rules measured against its decided holds and labels. */
export const RulesCalibrationReportSchema = z.object({
  team: z.string(),
  tenantId: z.string().optional(),
  since: z.string().optional(),
  labelled: z.int().min(0),
  fromHolds: z.int().min(0),
  fromLabels: z.int().min(0),
  notRejudged: z.int().min(0),
  reversedPasses: z.int().min(0),
  rules: z.array(RuleCalibrationSchema),
});
