import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NovarchConfigError } from '../../../src/errors.js';
import { loadNovarchConfig } from '../../../src/rules/load-novarch-config.js';
import { defaultNovarchConfig } from '../../../src/rules/novarch-config.js';
import { issuesOf, useTempDir } from './temp-files.js';

const temp = useTempDir();
const home = '/home/operator';

describe('loadNovarchConfig', () => {
  it('fills in the defaults', async () => {
    const file = temp.write('defaults.yaml', '# all defaults\nrules: []\n');
    expect(await loadNovarchConfig(file, { homeDirectory: home })).toEqual({
      file,
      holdWindowSeconds: 300,
      store: { path: '/home/operator/.novarch/novarch.db' },
      rules: [],
    });
    expect(defaultNovarchConfig(home)).toEqual({
      holdWindowSeconds: 300,
      store: { path: '/home/operator/.novarch/novarch.db' },
      rules: [],
    });
  });

  it('reads every key; relative paths are relative to the file and ~ is the home directory', async () => {
    temp.write('cs-ops.yaml', 'team: cs-ops\naction_types: [x]\nrules: []\n');
    const file = temp.write(
      'novarch.yaml',
      [
        'hold_window_seconds: 900',
        'judge:',
        '  provider: anthropic',
        '  model: claude-haiku-4-5',
        'store:',
        '  path: ~/governance/novarch.db',
        'rules:',
        '  - cs-ops.yaml',
        '',
      ].join('\n'),
    );
    expect(await loadNovarchConfig(file, { homeDirectory: home })).toEqual({
      file,
      holdWindowSeconds: 900,
      judge: { provider: 'anthropic', model: 'claude-haiku-4-5' },
      store: { path: '/home/operator/governance/novarch.db' },
      rules: [path.join(temp.dir, 'cs-ops.yaml')],
    });
  });

  /** Proves the store's redaction and bounds are read from store: (item 12), ready for openSqliteStore. */
  it('reads the store settings', async () => {
    const file = temp.write(
      'store.yaml',
      [
        'store:',
        '  path: novarch.db',
        '  redact:',
        '    - "acct-[0-9]{6}"',
        "    - 'password=\\S+'",
        '  replace_default_redactions: false',
        '  max_stored_bytes: 8192',
        '',
      ].join('\n'),
    );
    expect((await loadNovarchConfig(file, { homeDirectory: home })).store).toEqual({
      path: path.join(temp.dir, 'novarch.db'),
      redact: ['acct-[0-9]{6}', 'password=\\S+'],
      replaceDefaultRedactions: false,
      maxStoredBytes: 8192,
    });
  });

  it('reads the server settings: listen, store, public URL, drain timeout, tenants and their webhooks', async () => {
    const file = temp.write(
      'server.yaml',
      [
        'server:',
        '  listen: 0.0.0.0:7311',
        '  store_url: sqlite:./server.db',
        '  public_url: https://novarch.example.com',
        '  drain_timeout_seconds: 45',
        '  tenants:',
        '    acme:',
        '      hold_window_seconds: 600',
        '      webhook:',
        '        url: https://hooks.acme.example/novarch',
        '    globex: { webhook: { url: "http://127.0.0.1:9000/hook" } }',
        '    initech: {}',
        '',
      ].join('\n'),
    );
    expect((await loadNovarchConfig(file, { homeDirectory: home })).server).toEqual({
      listen: '0.0.0.0:7311',
      storeUrl: `sqlite:${path.join(temp.dir, 'server.db')}`,
      publicUrl: 'https://novarch.example.com',
      drainTimeoutSeconds: 45,
      tenants: {
        acme: {
          holdWindowSeconds: 600,
          webhook: { url: 'https://hooks.acme.example/novarch', position: { line: 9, column: 7 } },
        },
        globex: { webhook: { url: 'http://127.0.0.1:9000/hook', position: { line: 11, column: 15 } } },
        initech: {},
      },
    });
  });

  it('defaults the judge provider to anthropic', async () => {
    const file = temp.write('judge.yaml', 'judge:\n  model: claude-haiku-4-5\n');
    expect((await loadNovarchConfig(file, { homeDirectory: home })).judge).toEqual({
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
    });
  });

  it.each([
    [
      'openai',
      'judge:\n  provider: openai\n  model: gpt-4o\n  organization: org-42\n  endpoint: https://proxy.example.com/v1\n',
      {
        provider: 'openai',
        model: 'gpt-4o',
        organization: 'org-42',
        endpoint: 'https://proxy.example.com/v1',
      },
    ],
    [
      'azure_openai',
      [
        'judge:',
        '  provider: azure_openai',
        '  model: gpt-4o',
        '  endpoint: https://acme.openai.azure.com',
        '  deployment: judge-gpt4o',
        '  api_version: 2025-01-01-preview',
        '',
      ].join('\n'),
      {
        provider: 'azure_openai',
        model: 'gpt-4o',
        endpoint: 'https://acme.openai.azure.com',
        deployment: 'judge-gpt4o',
        apiVersion: '2025-01-01-preview',
      },
    ],
    ['ollama', 'judge:\n  provider: ollama\n  model: llama3.1\n', { provider: 'ollama', model: 'llama3.1' }],
  ])('reads a judge on %s', async (_provider, text, judge) => {
    const file = temp.write('judge.yaml', text);
    expect((await loadNovarchConfig(file, { homeDirectory: home })).judge).toEqual(judge);
  });

  it.each([
    [
      'an unknown key',
      'hold_window_secs: 60\n',
      [
        '1:1 hold_window_secs: unknown key "hold_window_secs" at the top level (hint: did you mean "hold_window_seconds"?)',
      ],
    ],
    [
      'a hold window that is not a positive whole number',
      'hold_window_seconds: -5\n',
      ['1:22 hold_window_seconds: must be at least 1, got -5'],
    ],
    [
      'a hold window written as text',
      'hold_window_seconds: five minutes\n',
      ['1:22 hold_window_seconds: expected a number, got "five minutes"'],
    ],
    [
      'an unsupported judge provider',
      'judge:\n  provider: antropic\n',
      [
        '2:13 judge.provider: expected one of "anthropic", "openai", "azure_openai", "ollama"; got "antropic" (hint: did you mean "anthropic"?)',
      ],
    ],
    [
      'a misspelt key in the judge',
      'judge:\n  modle: claude-sonnet-4-5\n',
      ['2:3 judge.modle: unknown key "modle" in judge (hint: did you mean "model"?)'],
    ],
    [
      'a judge on openai without a model',
      'judge:\n  provider: openai\n',
      ['1:1 judge.model: missing required key "model" for provider openai'],
    ],
    [
      'an azure_openai judge without an endpoint',
      'judge:\n  provider: azure_openai\n  model: gpt-4o\n',
      [
        '1:1 judge.endpoint: missing required key "endpoint" for provider azure_openai (e.g. https://<your-resource>.openai.azure.com)',
      ],
    ],
    [
      'a judge endpoint that is not an http(s) URL',
      'judge:\n  provider: ollama\n  model: llama3.1\n  endpoint: localhost:11434\n',
      ['4:13 judge.endpoint: expected an http(s) URL'],
    ],
    [
      'keys another provider reads',
      'judge:\n  provider: openai\n  model: gpt-4o\n  deployment: judge\n  api_version: 2024-10-21\n',
      [
        '4:15 judge.deployment: "deployment" is only read for provider azure_openai, not openai',
        '5:16 judge.api_version: "api_version" is only read for provider azure_openai, not openai',
      ],
    ],
    [
      'a rules file that does not exist',
      'rules:\n  - teams/missing.yaml\n',
      [
        `2:5 rules[0]: rules file not found: ${path.join('<dir>', 'teams/missing.yaml')} (hint: paths are relative to the configuration file)`,
      ],
    ],
    [
      'a store that is a string instead of a mapping',
      'store: /var/lib/novarch.db\n',
      ['1:8 store: expected a mapping (key: value lines), got "/var/lib/novarch.db"'],
    ],
    [
      'a max_stored_bytes below the preview it keeps',
      'store:\n  max_stored_bytes: 100\n',
      ['2:21 store.max_stored_bytes: must be at least 1024, got 100'],
    ],
    [
      'a max_stored_bytes written as text',
      'store:\n  max_stored_bytes: 64 KiB\n',
      ['2:21 store.max_stored_bytes: expected a number, got "64 KiB"'],
    ],
    [
      'a redaction pattern that is not a regular expression',
      "store:\n  redact:\n    - 'acct-(\\d+'\n",
      [
        '3:7 store.redact[0]: not a valid regular expression (Invalid regular expression: /acct-(\\d+/g: Unterminated group)',
      ],
    ],
    [
      'a public URL with a path',
      'server:\n  public_url: https://novarch.example.com/console\n',
      [
        '2:15 server.public_url: must be http(s)://HOST[:PORT] with no path, query or credentials, e.g. https://novarch.example.com',
      ],
    ],
    [
      'a public URL that is not a URL',
      'server:\n  public_url: novarch.example.com\n',
      ['2:15 server.public_url: is not a URL: expected e.g. https://novarch.example.com'],
    ],
    [
      'a public URL with credentials',
      'server:\n  public_url: https://ana:pw@novarch.example.com\n',
      [
        '2:15 server.public_url: must be http(s)://HOST[:PORT] with no path, query or credentials, e.g. https://novarch.example.com',
      ],
    ],
    [
      'a misspelt public_url',
      'server:\n  public_uri: https://novarch.example.com\n',
      ['2:3 server.public_uri: unknown key "public_uri" in server (hint: did you mean "public_url"?)'],
    ],
    [
      'a drain timeout below 1 s',
      'server:\n  drain_timeout_seconds: 0\n',
      ['2:26 server.drain_timeout_seconds: must be at least 1, got 0'],
    ],
    [
      'a drain timeout written as text',
      'server:\n  drain_timeout_seconds: 30s\n',
      ['2:26 server.drain_timeout_seconds: expected a number, got "30s"'],
    ],
    [
      'a webhook URL that is not http(s)',
      'server:\n  tenants:\n    acme:\n      webhook:\n        url: ftp://hooks.acme.example/novarch\n',
      ['5:14 server.tenants.acme.webhook.url: must be http: or https:, got ftp:.'],
    ],
    [
      'a webhook URL that is not a URL',
      'server:\n  tenants:\n    acme:\n      webhook:\n        url: hooks.acme.example\n',
      [
        '5:14 server.tenants.acme.webhook.url: is not a valid URL; expected e.g. https://hooks.example.com/novarch.',
      ],
    ],
    [
      'a webhook URL with a user and password',
      'server:\n  tenants:\n    acme:\n      webhook:\n        url: https://ana:pw@hooks.acme.example/novarch\n',
      [
        '5:14 server.tenants.acme.webhook.url: must not carry a user or password; the signature authenticates the request.',
      ],
    ],
    [
      'a webhook without a url',
      'server:\n  tenants:\n    acme:\n      webhook: {}\n',
      ['4:7 server.tenants.acme.webhook.url: missing required key "url" in server.tenants.acme.webhook'],
    ],
    [
      'a webhook written as a bare URL',
      'server:\n  tenants:\n    acme:\n      webhook: https://hooks.acme.example/novarch\n',
      [
        '4:16 server.tenants.acme.webhook: expected a mapping (key: value lines), got "https://hooks.acme.example/novarch"',
      ],
    ],
    [
      'a misspelt key in a webhook',
      'server:\n  tenants:\n    acme:\n      webhook:\n        uri: https://hooks.acme.example/novarch\n',
      [
        '4:7 server.tenants.acme.webhook.url: missing required key "url" in server.tenants.acme.webhook',
        '5:9 server.tenants.acme.webhook.uri: unknown key "uri" in server.tenants.acme.webhook (hint: did you mean "url"?)',
      ],
    ],
    [
      'a misspelt key in a tenant',
      'server:\n  tenants:\n    acme:\n      webhooks: { url: https://hooks.acme.example/novarch }\n',
      [
        '4:7 server.tenants.acme.webhooks: unknown key "webhooks" in server.tenants.acme (hint: did you mean "webhook"?)',
      ],
    ],
    [
      "a webhook's secret in the file",
      'server:\n  tenants:\n    acme:\n      webhook:\n        url: https://hooks.acme.example/novarch\n        secret: whsec-0123456789abcdef\n',
      [
        "6:9 server.tenants.acme.webhook.secret: a webhook's secret is never read from the configuration file: set $NOVARCH_WEBHOOK_SECRET_ACME in the server's environment instead (hint: remove this key (and change the secret if this file was shared))",
      ],
    ],
    [
      "a webhook's secret in the file, beside another problem",
      'server:\n  tenants:\n    acme.eu: { webhook: { url: "ftp://x", secret: s } }\n',
      [
        '3:32 server.tenants.acme.eu.webhook.url: must be http: or https:, got ftp:.',
        "3:43 server.tenants.acme.eu.webhook.secret: a webhook's secret is never read from the configuration file: set $NOVARCH_WEBHOOK_SECRET_ACME_EU in the server's environment instead (hint: remove this key (and change the secret if this file was shared))",
      ],
    ],
    [
      'two tenants that would share a secret variable',
      'server:\n  tenants:\n    acme.eu: { webhook: { url: "https://a.example/h" } }\n    acme-eu: { webhook: { url: "https://b.example/h" } }\n',
      [
        '4:16 server.tenants.acme-eu.webhook: tenants "acme.eu" and "acme-eu" would share the secret variable $NOVARCH_WEBHOOK_SECRET_ACME_EU: give one of them no webhook',
      ],
    ],
    [
      'malformed YAML',
      'judge:\n  provider: "anthropic\n',
      [
        '3:1 : invalid YAML: Missing closing "quote (hint: check the indentation, quotes and brackets on this line and the one before it)',
      ],
    ],
  ])('reports %s', async (_name, text, expected) => {
    const file = temp.write('bad.yaml', text);
    const issues = await issuesOf(() => loadNovarchConfig(file, { homeDirectory: home }));
    expect(issues.map((issue) => issue.split(temp.dir).join('<dir>'))).toEqual(expected);
  });

  it("names the file, line and field of a webhook's secret, and the variable to use instead", async () => {
    const file = temp.write(
      'secret.yaml',
      'server:\n  tenants:\n    acme:\n      webhook:\n        url: https://hooks.acme.example/novarch\n        secret: whsec-0123456789abcdef\n',
    );
    const error = await loadNovarchConfig(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NovarchConfigError);
    expect(error instanceof NovarchConfigError ? error.message : '').toBe(
      `1 problem in Novarch configuration:\n${file}:6:9  server.tenants.acme.webhook.secret: a webhook's secret is never read from the configuration file: set $NOVARCH_WEBHOOK_SECRET_ACME in the server's environment instead\n    hint: remove this key (and change the secret if this file was shared)`,
    );
    // The secret itself is never part of the message.
    expect(error instanceof NovarchConfigError ? error.message : '').not.toContain('whsec-0123456789abcdef');
  });

  it('names the file in the error message', async () => {
    const file = path.join(temp.dir, 'absent.yaml');
    const error = await loadNovarchConfig(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NovarchConfigError);
    expect(error instanceof NovarchConfigError ? error.message : '').toBe(
      `1 problem in Novarch configuration:\n${file}  Novarch configuration file not found\n    hint: check the path; keys: hold_window_seconds (default 300), judge: {provider: anthropic, model}, store: {path, redact, replace_default_redactions, max_stored_bytes}, rules: [files], server: {listen, store_url, public_url, drain_timeout_seconds, tenants: {ID: {hold_window_seconds, webhook: {url}}}, slack: {channels: {teams, rules}, operators, api_url, secrets_file}}`,
    );
  });
});
