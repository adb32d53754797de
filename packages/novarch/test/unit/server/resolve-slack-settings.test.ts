import { chmodSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveServeSettings, type ServerEnvironment } from '../../../src/server/resolve-server-settings.js';
import { issuesOf, useTempDir } from '../rules/temp-files.js';

// Slack approvals' settings: off unless server.slack is written; the bot token and the signing
// secret from the environment or a private secrets file, never the configuration file; every
// problem refused with what to do, and no message holds a secret.

const temp = useTempDir();
const TOKEN = 'xoxb-1234-5678-abcdefghijkl';
const SECRET = '8f742231b10e8888abcd99eeeeee85a5';

const SLACK = [
  'server:',
  '  slack:',
  '    channels:',
  '      teams: { cs-ops: C0CSOPS }',
  '      rules: { TEAM-3: C0FINANCE }',
  '    operators: { U0ANA: ana }',
];
const FILE = temp.write('novarch.yaml', [...SLACK, ''].join('\n'));

function environment(env: Record<string, string> = {}): ServerEnvironment {
  return { env, cwd: path.join(temp.dir, 'elsewhere'), homeDirectory: '/home/operator' };
}
const resolve = (env: Record<string, string>, config: string | null = FILE) =>
  resolveServeSettings(config === null ? {} : { config }, environment(env));

describe('server.slack', () => {
  it('is off by default, and on with the file section and both secrets from the environment', async () => {
    expect(await resolve({}, null)).not.toHaveProperty('slack');
    const settings = await resolve({ NOVARCH_SLACK_BOT_TOKEN: TOKEN, NOVARCH_SLACK_SIGNING_SECRET: SECRET });
    expect(settings.slack).toEqual({
      teamChannels: { 'cs-ops': 'C0CSOPS' },
      ruleChannels: { 'TEAM-3': 'C0FINANCE' },
      operators: { U0ANA: 'ana' },
      botToken: TOKEN,
      signingSecret: SECRET,
    });
  });

  it('reads the secrets from a private secrets file, and refuses one others can read', async () => {
    const secrets = temp.write('slack-secrets.yaml', `bot_token: ${TOKEN}\nsigning_secret: ${SECRET}\n`);
    chmodSync(secrets, 0o600);
    const file = temp.write(
      'with-file.yaml',
      [...SLACK, '    secrets_file: slack-secrets.yaml', ''].join('\n'),
    );
    expect((await resolve({}, file)).slack).toMatchObject({ botToken: TOKEN, signingSecret: SECRET });
    chmodSync(secrets, 0o644);
    await expect(resolve({}, file)).rejects.toThrow(
      `server.slack.secrets_file in ${file}: ${secrets} can be read by other users: make it private with chmod 600 ${secrets}`,
    );
    const bad = temp.write('bad-secrets.yaml', 'token: x\n');
    chmodSync(bad, 0o600);
    await expect(resolve({ NOVARCH_SLACK_SECRETS_FILE: bad })).rejects.toThrow(
      `$NOVARCH_SLACK_SECRETS_FILE: ${bad} is not a Slack secrets file: write YAML with bot_token: xoxb-… and signing_secret: … (nothing else)`,
    );
  });

  it('refuses missing or malformed secrets with the variable to set, never echoing them', async () => {
    await expect(resolve({ NOVARCH_SLACK_SIGNING_SECRET: SECRET })).rejects.toThrow(
      `server.slack in ${FILE} needs the app's bot token: set $NOVARCH_SLACK_BOT_TOKEN (xoxb-…, the app's OAuth & Permissions page) or bot_token in a secrets file (server.slack.secrets_file)`,
    );
    await expect(resolve({ NOVARCH_SLACK_BOT_TOKEN: TOKEN })).rejects.toThrow(
      `server.slack in ${FILE} needs the app's signing secret: set $NOVARCH_SLACK_SIGNING_SECRET (the app's Basic Information page) or signing_secret in a secrets file (server.slack.secrets_file)`,
    );
    const userToken = 'xoxp-9999-secret-user-token';
    const refused = resolve({ NOVARCH_SLACK_BOT_TOKEN: userToken, NOVARCH_SLACK_SIGNING_SECRET: SECRET });
    await expect(refused).rejects.toThrow(
      '$NOVARCH_SLACK_BOT_TOKEN is not a Slack bot token: expected xoxb-… (the app\'s OAuth & Permissions page, "Bot User OAuth Token"); a user token (xoxp-) or app token (xapp-) cannot post as the bot',
    );
    await expect(refused).rejects.not.toThrow(userToken);
    await expect(
      resolve({ NOVARCH_SLACK_BOT_TOKEN: TOKEN, NOVARCH_SLACK_SIGNING_SECRET: 'hunter2' }),
    ).rejects.toThrow(
      '$NOVARCH_SLACK_SIGNING_SECRET is not a Slack signing secret: expected the 32 hexadecimal characters of the app\'s Basic Information page, "Signing Secret" (not the deprecated verification token)',
    );
  });

  it('refuses a Slack variable with no server.slack section: it would have no effect', async () => {
    const plain = temp.write('plain.yaml', 'hold_window_seconds: 60\n');
    await expect(resolve({ NOVARCH_SLACK_BOT_TOKEN: TOKEN }, plain)).rejects.toThrow(
      `$NOVARCH_SLACK_BOT_TOKEN is set, but ${plain} has no server.slack section: Slack approvals need server.slack (channels and operators; see docs/governance.md, "Approvals in Slack"), or unset $NOVARCH_SLACK_BOT_TOKEN`,
    );
  });

  it('refuses a section with no channel, no operator, a channel name or a token in the file, at file:line', async () => {
    const file = temp.write(
      'wrong.yaml',
      [
        'server:',
        '  slack:',
        '    channels: { teams: { cs-ops: "#cs-ops" } }',
        '    bot_token: xoxb-1',
        '',
      ].join('\n'),
    );
    expect(await issuesOf(() => resolve({}, file))).toEqual([
      '2:3 server.slack.operators: maps no Slack user to an operator: add operators (SLACK_USER_ID: OPERATOR_NAME); unknown Slack users are refused',
      '3:34 server.slack.channels.teams.cs-ops: a Slack channel id, e.g. C0123ABCD (channel details → the id at the bottom), not a #name',
      '4:5 server.slack.bot_token: unknown key "bot_token" in server.slack (hint: allowed keys: "channels", "operators", "api_url", "secrets_file")',
    ]);
    const empty = temp.write('empty.yaml', ['server:', '  slack:', '    channels: {}', ''].join('\n'));
    expect(await issuesOf(() => resolve({}, empty))).toEqual([
      '2:3 server.slack.operators: maps no Slack user to an operator: add operators (SLACK_USER_ID: OPERATOR_NAME); unknown Slack users are refused',
      '3:5 server.slack.channels: names no channel: add channels.teams (TEAM: CHANNEL_ID) or channels.rules (RULE_ID: CHANNEL_ID), or remove server.slack',
    ]);
  });
});
