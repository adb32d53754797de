import { readFileSync, statSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { OperatorUsageError } from '../errors.js';
import type { NovarchSlackConfig } from '../rules/slack-server-config.js';

/** The environment variables of Slack approvals. */
export const SLACK_ENV = {
  botToken: 'NOVARCH_SLACK_BOT_TOKEN',
  signingSecret: 'NOVARCH_SLACK_SIGNING_SECRET',
  secretsFile: 'NOVARCH_SLACK_SECRETS_FILE',
} as const;

/** Slack approvals as `novarch serve` runs them: the file's settings and the two secrets. */
export interface SlackSettings extends NovarchSlackConfig {
  botToken: string;
  signingSecret: string;
}

const SecretsFileSchema = z.strictObject({
  bot_token: z.string().optional(),
  signing_secret: z.string().optional(),
});

/** Where a secret came from, for messages (never the secret itself). */
interface Found {
  value: string;
  source: string;
}

/** A secrets file's two entries; refused when others can read it or it is not that YAML. */
function readSecretsFile(file: string, source: string): { botToken?: Found; signingSecret?: Found } {
  let text: string;
  try {
    if ((statSync(file).mode & 0o077) !== 0)
      throw new OperatorUsageError(
        `${source}: ${file} can be read by other users: make it private with chmod 600 ${file}`,
      );
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof OperatorUsageError) throw error;
    throw new OperatorUsageError(
      `${source}: cannot read ${file}: ${error instanceof Error ? error.message : error}`,
    );
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch {
    data = undefined;
  }
  const parsed = SecretsFileSchema.safeParse(data);
  if (!parsed.success)
    throw new OperatorUsageError(
      `${source}: ${file} is not a Slack secrets file: write YAML with bot_token: xoxb-… and signing_secret: … (nothing else)`,
    );
  const where = `bot_token in ${file}`;
  return {
    ...(parsed.data.bot_token === undefined
      ? {}
      : { botToken: { value: parsed.data.bot_token, source: where } }),
    ...(parsed.data.signing_secret === undefined
      ? {}
      : { signingSecret: { value: parsed.data.signing_secret, source: `signing_secret in ${file}` } }),
  };
}

/**
 * Slack approvals' settings, or undefined when `server.slack` is absent (off by default). The bot
 * token and signing secret come from `$NOVARCH_SLACK_BOT_TOKEN` / `$NOVARCH_SLACK_SIGNING_SECRET`,
 * else the secrets file (`$NOVARCH_SLACK_SECRETS_FILE`, else `server.slack.secrets_file`). Every
 * problem is refused with what to do; no message ever holds a secret's value.
 */
export function resolveSlackSettings(
  slack: NovarchSlackConfig | undefined,
  env: Readonly<Record<string, string | undefined>>,
  configFile: string | undefined,
): SlackSettings | undefined {
  const given = (name: string) => (env[name]?.trim() ? env[name].trim() : undefined);
  if (slack === undefined) {
    const set = Object.values(SLACK_ENV).filter((name) => given(name) !== undefined);
    if (set.length > 0)
      throw new OperatorUsageError(
        `$${set[0]} is set, but ${configFile === undefined ? 'no novarch.yaml is read' : `${configFile} has no server.slack section`}: Slack approvals need server.slack (channels and operators; see docs/governance.md, "Approvals in Slack"), or unset $${set[0]}`,
      );
    return undefined;
  }
  const fileFlag = given(SLACK_ENV.secretsFile);
  const secretsFile = fileFlag ?? slack.secretsFile;
  const fromFile =
    secretsFile === undefined
      ? {}
      : readSecretsFile(
          secretsFile,
          fileFlag === undefined ? `server.slack.secrets_file in ${configFile}` : `$${SLACK_ENV.secretsFile}`,
        );
  const envToken = given(SLACK_ENV.botToken);
  const envSecret = given(SLACK_ENV.signingSecret);
  const botToken =
    envToken === undefined ? fromFile.botToken : { value: envToken, source: `$${SLACK_ENV.botToken}` };
  const signingSecret =
    envSecret === undefined
      ? fromFile.signingSecret
      : { value: envSecret, source: `$${SLACK_ENV.signingSecret}` };
  if (botToken === undefined)
    throw new OperatorUsageError(
      `server.slack in ${configFile} needs the app's bot token: set $${SLACK_ENV.botToken} (xoxb-…, the app's OAuth & Permissions page) or bot_token in a secrets file (server.slack.secrets_file)`,
    );
  if (signingSecret === undefined)
    throw new OperatorUsageError(
      `server.slack in ${configFile} needs the app's signing secret: set $${SLACK_ENV.signingSecret} (the app's Basic Information page) or signing_secret in a secrets file (server.slack.secrets_file)`,
    );
  if (!/^xoxb-[A-Za-z0-9-]{8,}$/.test(botToken.value))
    throw new OperatorUsageError(
      `${botToken.source} is not a Slack bot token: expected xoxb-… (the app's OAuth & Permissions page, "Bot User OAuth Token"); a user token (xoxp-) or app token (xapp-) cannot post as the bot`,
    );
  if (!/^[0-9a-f]{32,}$/i.test(signingSecret.value))
    throw new OperatorUsageError(
      `${signingSecret.source} is not a Slack signing secret: expected the 32 hexadecimal characters of the app's Basic Information page, "Signing Secret" (not the deprecated verification token)`,
    );
  return { ...slack, botToken: botToken.value, signingSecret: signingSecret.value };
}
