import { z } from 'zod';

/** How a write tool's arguments become the action Novarch judges. */
export const GovernanceWriteSpecSchema = z.strictObject({
  action_type: z.string().min(1).describe('An action type declared in the rules file.'),
  record_id: z
    .string()
    .min(1)
    .describe('Name of the tool argument that identifies the record (e.g. order_id).'),
  summary: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Summary template; {arg} is replaced by the argument value. Default "<action_type> <record id>".',
    ),
  amount: z.string().min(1).optional().describe('Name of the numeric tool argument holding an amount.'),
});
/** A `governance.write_specs` entry. */
export type GovernanceWriteSpec = z.infer<typeof GovernanceWriteSpecSchema>;

/**
 * Novarch governance of this agent's tool calls: reads become evidence, writes are judged against
 * the team's rules before they run, and holds wait for an operator (`novarch holds ...`).
 */
export const GovernanceConfigSchema = z.strictObject({
  tenant_id: z.string().min(1).describe('The tenant whose rules apply (Novarch store scope).'),
  team_id: z.string().min(1).describe('The team whose rules file applies (its `team:`).'),
  agent_id: z.string().min(1).describe('This agent, as Novarch records it.'),
  rules_file: z.string().min(1).describe('The team rules (YAML), relative to agent.yaml.'),
  config_file: z
    .string()
    .min(1)
    .optional()
    .describe('Novarch deployment config (hold window, store, judge); default: built-in defaults.'),
  max_hold_s: z
    .union([z.number().positive(), z.literal('deployment')])
    .optional()
    .describe('Longest this agent waits on a hold (seconds), or "deployment" for the whole window.'),
  tool_kinds: z
    .record(z.string().min(1), z.enum(['read', 'write']))
    .describe('Tool names (short or mcp__server__tool) → read or write; other tools are refused.'),
  write_specs: z
    .record(z.string().min(1), GovernanceWriteSpecSchema)
    .default({})
    .describe('For each write tool: how its arguments become the action Novarch judges.'),
});
/** The `governance:` block. */
export type GovernanceConfig = z.infer<typeof GovernanceConfigSchema>;
