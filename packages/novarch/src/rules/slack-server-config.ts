import { z } from 'zod';
import { publicUrlProblem } from './check-public-url.js';

/**
 * `server.slack`: interactive approvals in Slack. Holds of a team (or of a rule) with a channel
 * are posted there with Approve / Deny buttons; a click is decided as the Novarch operator the
 * Slack user is mapped to. The bot token and signing secret are never in this file: they come
 * from `$NOVARCH_SLACK_BOT_TOKEN` / `$NOVARCH_SLACK_SIGNING_SECRET`, or the `secrets_file`.
 */
export interface NovarchSlackConfig {
  /** Channel ids by team (`cs-ops: C0123ABCD`). */
  teamChannels: Record<string, string>;
  /** Channel ids by rule id; a hold of such a rule goes there instead of its team's channel. */
  ruleChannels: Record<string, string>;
  /** Slack user id → the name of a Novarch operator token (`U0123ABCD: ana`). */
  operators: Record<string, string>;
  /** The Web API base; default https://slack.com/api. */
  apiUrl?: string;
  /** A YAML file with `bot_token` and `signing_secret` (absolute, resolved from this file). */
  secretsFile?: string;
}

const CHANNEL = z
  .string()
  .regex(
    /^[CGD][A-Z0-9]{2,30}$/,
    'a Slack channel id, e.g. C0123ABCD (channel details → the id at the bottom), not a #name',
  );
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The `server.slack` section (snake_case, strict). */
export const NovarchSlackConfigSchema = z
  .strictObject({
    channels: z
      .strictObject({
        teams: z.record(z.string().regex(NAME, 'a team id: letters, digits, . _ -'), CHANNEL).optional(),
        rules: z.record(z.string().min(1), CHANNEL).optional(),
      })
      .optional(),
    operators: z
      .record(
        z
          .string()
          .regex(/^[UW][A-Z0-9]{2,30}$/, 'a Slack user id, e.g. U0123ABCD (profile → ⋮ → Copy member ID)'),
        z.string().regex(NAME, 'the name of a Novarch operator token (novarch operators list)'),
      )
      .optional(),
    api_url: z
      .string()
      .superRefine((text, context) => {
        const problem = /^https?:\/\/[^/]+\/api\/?$/.test(text)
          ? publicUrlProblem(text.replace(/\/api\/?$/, ''))
          : 'must be the Web API base, https://slack.com/api';
        if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    secrets_file: z.string().min(1).optional(),
  })
  .superRefine((slack, context) => {
    const teams = Object.keys(slack.channels?.teams ?? {});
    const rules = Object.keys(slack.channels?.rules ?? {});
    if (teams.length === 0 && rules.length === 0)
      context.addIssue({
        code: 'custom',
        path: ['channels'],
        message:
          'names no channel: add channels.teams (TEAM: CHANNEL_ID) or channels.rules (RULE_ID: CHANNEL_ID), or remove server.slack',
      });
    if (Object.keys(slack.operators ?? {}).length === 0)
      context.addIssue({
        code: 'custom',
        path: ['operators'],
        message:
          'maps no Slack user to an operator: add operators (SLACK_USER_ID: OPERATOR_NAME); unknown Slack users are refused',
      });
  });

/** Converts a validated `server.slack`; `resolvePath` makes a path of the file absolute. */
export function toSlackConfig(
  slack: z.output<typeof NovarchSlackConfigSchema>,
  resolvePath: (value: string) => string,
): NovarchSlackConfig {
  return {
    teamChannels: { ...slack.channels?.teams },
    ruleChannels: { ...slack.channels?.rules },
    operators: { ...slack.operators },
    ...(slack.api_url === undefined ? {} : { apiUrl: slack.api_url.replace(/\/+$/, '') }),
    ...(slack.secrets_file === undefined ? {} : { secretsFile: resolvePath(slack.secrets_file) }),
  };
}
