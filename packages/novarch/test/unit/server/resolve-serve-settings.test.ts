import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  resolveServerSettings,
  resolveServeSettings,
  type ServerEnvironment,
} from '../../../src/server/resolve-server-settings.js';
import { useTempDir } from '../rules/temp-files.js';

// Where `novarch serve` takes its public URL, webhooks and drain timeout from: flag > variable >
// novarch.yaml > default, each setting whole; webhook secrets from the environment only.

const temp = useTempDir();
const ACME_SECRET = 'whsec-acme-0123456789abcdef';
const GLOBEX_SECRET = 'whsec-globex-0123456789abcdef';

const FILE = temp.write(
  'novarch.yaml',
  [
    'server:',
    '  public_url: https://novarch.example.com',
    '  drain_timeout_seconds: 45',
    '  tenants:',
    '    acme:',
    '      hold_window_seconds: 600',
    '      webhook:',
    '        url: https://hooks.acme.example/novarch',
    '    globex:',
    '      webhook: { url: "https://hooks.globex.example/n" }',
    '    initech: {}',
    '',
  ].join('\n'),
);

/** A working directory without a novarch.yaml: only `--config` names one. */
function environment(env: Record<string, string> = {}): ServerEnvironment {
  return { env, cwd: path.join(temp.dir, 'elsewhere'), homeDirectory: '/home/operator' };
}
const withSecrets = {
  NOVARCH_WEBHOOK_SECRET_ACME: ACME_SECRET,
  NOVARCH_WEBHOOK_SECRET_GLOBEX: GLOBEX_SECRET,
};

async function refusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof Error)) throw new Error('expected the settings to be refused');
  return `${error.name}: ${error.message}`;
}

describe('resolveServeSettings', () => {
  it('takes the public URL, the webhooks and the drain timeout from novarch.yaml, the secrets from the environment', async () => {
    const settings = await resolveServeSettings({ config: FILE }, environment(withSecrets));
    expect(settings).toMatchObject({
      publicUrl: 'https://novarch.example.com',
      webhooks: {
        acme: { url: 'https://hooks.acme.example/novarch', secret: ACME_SECRET },
        globex: { url: 'https://hooks.globex.example/n', secret: GLOBEX_SECRET },
      },
      webhookSource: `server.tenants in ${FILE}`,
      drainTimeoutMs: 45_000,
    });
    // The server is told each tenant's own settings, not its webhook.
    expect(settings.tenants).toEqual({ acme: { holdWindowSeconds: 600 }, globex: {}, initech: {} });
  });

  it('the variables win over the file, each setting whole: $NOVARCH_WEBHOOKS replaces every webhook of the file', async () => {
    const settings = await resolveServeSettings(
      { config: FILE },
      environment({
        // No secret for globex: its webhook in the file is not used.
        NOVARCH_WEBHOOK_SECRET_ACME: ACME_SECRET,
        NOVARCH_WEBHOOKS: 'acme=https://env.acme.example/hook',
        NOVARCH_PUBLIC_URL: 'https://env.novarch.example.com',
        NOVARCH_DRAIN_TIMEOUT_SECONDS: '5',
      }),
    );
    expect(settings).toMatchObject({
      publicUrl: 'https://env.novarch.example.com',
      webhooks: { acme: { url: 'https://env.acme.example/hook', secret: ACME_SECRET } },
      webhookSource: '$NOVARCH_WEBHOOKS',
      drainTimeoutMs: 5_000,
    });
    expect(Object.keys(settings.webhooks ?? {})).toEqual(['acme']);
  });

  it('the flags win over the variables and the file', async () => {
    const settings = await resolveServeSettings(
      {
        config: FILE,
        publicUrl: 'https://flag.novarch.example.com/',
        webhook: ['globex=https://flag.globex.example/hook'],
        drainTimeout: '2',
      },
      environment({
        NOVARCH_WEBHOOK_SECRET_GLOBEX: GLOBEX_SECRET,
        NOVARCH_WEBHOOKS: 'acme=https://env.acme.example/hook',
        NOVARCH_PUBLIC_URL: 'https://env.novarch.example.com',
        NOVARCH_DRAIN_TIMEOUT_SECONDS: '5',
      }),
    );
    expect(settings).toMatchObject({
      publicUrl: 'https://flag.novarch.example.com',
      webhooks: { globex: { url: 'https://flag.globex.example/hook', secret: GLOBEX_SECRET } },
      webhookSource: '--webhook',
      drainTimeoutMs: 2_000,
    });
    expect(Object.keys(settings.webhooks ?? {})).toEqual(['globex']);
  });

  it('defaults: no public URL, no webhooks, a drain timeout of 30 s', async () => {
    const settings = await resolveServeSettings({ store: 'sqlite:/tmp/n.db' }, environment());
    expect(settings.publicUrl).toBeUndefined();
    expect(settings.webhooks).toBeUndefined();
    expect(settings.drainTimeoutMs).toBe(30_000);
  });

  it("refuses a webhook of the file whose tenant has no secret variable, naming the variable and the webhook's line", async () => {
    expect(
      await refusal(
        resolveServeSettings({ config: FILE }, environment({ NOVARCH_WEBHOOK_SECRET_ACME: ACME_SECRET })),
      ),
    ).toBe(
      `NovarchConfigError: 1 problem in Novarch configuration:\n${FILE}:10:7  server.tenants.globex.webhook: the webhook of tenant "globex" needs its signing secret in $NOVARCH_WEBHOOK_SECRET_GLOBEX (at least 16 characters, e.g. from \`openssl rand -hex 32\`)\n    hint: a webhook secret is read from the environment only, never from novarch.yaml`,
    );
  });

  it('refuses a secret variable too short for a webhook of the file', async () => {
    expect(
      await refusal(
        resolveServeSettings(
          { config: FILE },
          environment({ NOVARCH_WEBHOOK_SECRET_ACME: 'short', NOVARCH_WEBHOOK_SECRET_GLOBEX: GLOBEX_SECRET }),
        ),
      ),
    ).toBe(
      `NovarchConfigError: 1 problem in Novarch configuration:\n${FILE}:7:7  server.tenants.acme.webhook: the webhook of tenant "acme": secret must be at least 16 characters (e.g. the output of \`openssl rand -hex 32\`).`,
    );
  });

  it('webhooks of the file on every interface need a public URL; server.public_url is one', async () => {
    const bare = temp.write(
      'every-interface.yaml',
      'server:\n  listen: 0.0.0.0:7311\n  tenants:\n    acme: { webhook: { url: "https://hooks.acme.example/n" } }\n',
    );
    expect(
      await refusal(
        resolveServeSettings({ config: bare }, environment({ NOVARCH_WEBHOOK_SECRET_ACME: ACME_SECRET })),
      ),
    ).toBe(
      `OperatorUsageError: webhooks link to the console, but server.listen in ${bare} listens on every interface (0.0.0.0:7311): give the address operators reach the server at with --public-url, $NOVARCH_PUBLIC_URL or server.public_url, e.g. https://novarch.example.com`,
    );
    const settings = await resolveServeSettings(
      { config: FILE, listen: '0.0.0.0:7311' },
      environment(withSecrets),
    );
    expect(settings).toMatchObject({ host: '0.0.0.0', publicUrl: 'https://novarch.example.com' });
  });

  it.each([
    [
      { drainTimeout: '0' },
      {},
      'OperatorUsageError: --drain-timeout: "0" is not a drain timeout: write a whole number of seconds ≥ 1, e.g. 30',
    ],
    [
      {},
      { NOVARCH_DRAIN_TIMEOUT_SECONDS: '1.5' },
      'OperatorUsageError: $NOVARCH_DRAIN_TIMEOUT_SECONDS: "1.5" is not a drain timeout: write a whole number of seconds ≥ 1, e.g. 30',
    ],
  ])('refuses a bad drain timeout %j %j', async (flags, env, message) => {
    expect(
      await refusal(resolveServeSettings({ store: 'sqlite:/tmp/n.db', ...flags }, environment(env))),
    ).toBe(message);
  });
});

describe('resolveServerSettings (the store and identity commands)', () => {
  it('needs no webhook secret: webhooks are read by serve only', async () => {
    const settings = await resolveServerSettings({ config: FILE }, environment());
    expect(settings.storeUrl).toBe(`sqlite:${path.join('/home/operator', '.novarch/novarch.db')}`);
    expect(Object.keys(settings.tenants ?? {})).toEqual(['acme', 'globex', 'initech']);
  });
});
