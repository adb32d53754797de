import { z } from 'zod';

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Where a governed agent's Novarch agent key comes from with `server:` (never agent.yaml). */
export const NOVARCH_API_KEY_VARIABLE = 'NOVARCH_API_KEY';

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
export const GovernanceConfigSchema = z
  .strictObject({
    tenant_id: z.string().min(1).describe('The tenant whose rules apply (Novarch store scope).'),
    team_id: z.string().min(1).describe('The team whose rules file applies (its `team:`).'),
    agent_id: z.string().min(1).describe('This agent, as Novarch records it.'),
    server: z
      .string()
      .refine(isHttpUrl, {
        message: 'expected the http(s) URL of a Novarch server, e.g. http://novarch.internal:7311',
      })
      .optional()
      .describe(
        `A Novarch server (novarch serve), e.g. \${NOVARCH_SERVER}: it judges and stores every decision with its own rules, hold window and judge. The agent key comes from ${NOVARCH_API_KEY_VARIABLE} in the environment, never from agent.yaml.`,
      ),
    rules_file: z
      .string()
      .min(1)
      .optional()
      .describe('The team rules (YAML), relative to agent.yaml. Required without server; refused with it.'),
    config_file: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Novarch deployment config (hold window, store, judge); default: built-in defaults. Refused with server.',
      ),
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
  })
  .superRefine((governance, context) => {
    if (governance.server === undefined) {
      if (governance.rules_file === undefined)
        context.addIssue({
          code: 'custom',
          path: ['rules_file'],
          message:
            'missing required key "rules_file" (the team rules), or set server: to be governed by a Novarch server',
        });
      return;
    }
    // The server judges: settings the agent would bring have no effect there, so they are refused.
    if (governance.rules_file !== undefined)
      context.addIssue({
        code: 'custom',
        path: ['rules_file'],
        message:
          'rules_file has no effect with server: the server judges with its own rules (its novarch.yaml rules:, or `novarch rules push`); remove rules_file',
      });
    if (governance.config_file !== undefined)
      context.addIssue({
        code: 'custom',
        path: ['config_file'],
        message:
          "config_file has no effect with server: the hold window, store and judge are the server's; remove config_file",
      });
  });
/** The `governance:` block. */
export type GovernanceConfig = z.infer<typeof GovernanceConfigSchema>;
