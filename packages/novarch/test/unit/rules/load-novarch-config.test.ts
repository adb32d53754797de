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

  it('names the file in the error message', async () => {
    const file = path.join(temp.dir, 'absent.yaml');
    const error = await loadNovarchConfig(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NovarchConfigError);
    expect(error instanceof NovarchConfigError ? error.message : '').toBe(
      `1 problem in Novarch configuration:\n${file}  Novarch configuration file not found\n    hint: check the path; keys: hold_window_seconds (default 300), judge: {provider: anthropic, model}, store: {path, redact, replace_default_redactions, max_stored_bytes}, rules: [files], server: {listen, store_url, tenants}`,
    );
  });
});
