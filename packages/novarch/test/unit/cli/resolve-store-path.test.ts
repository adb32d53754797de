import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveStorePath } from '../../../src/cli/resolve-store-path.js';
import { NovarchConfigError } from '../../../src/errors.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'novarch-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const configFile = path.join(dir, 'novarch.yaml');
writeFileSync(configFile, 'store:\n  path: stores/team.db\n');

const environment = (env: Record<string, string> = {}) => ({
  env,
  cwd: '/work/ops',
  homeDirectory: '/home/ana',
});

describe('resolveStorePath', () => {
  it('takes --store first, relative to the working directory, ~ as home', async () => {
    const both = { store: 'mine.db', config: configFile };
    expect(await resolveStorePath(both, environment({ NOVARCH_STORE: '/env.db' }))).toEqual({
      path: '/work/ops/mine.db',
      source: '--store',
    });
    expect((await resolveStorePath({ store: '~/x.db' }, environment())).path).toBe('/home/ana/x.db');
  });

  it('then the store.path of --config, relative to the configuration file', async () => {
    expect(await resolveStorePath({ config: configFile }, environment({ NOVARCH_STORE: '/env.db' }))).toEqual(
      {
        path: path.join(dir, 'stores/team.db'),
        source: `store.path in ${configFile}`,
        storeOptions: {},
      },
    );
  });

  /** Proves the CLI opens a store with the redaction and bounds of its --config file (item 12). */
  it('carries the store settings of --config to the store it opens', async () => {
    const tuned = path.join(dir, 'tuned.yaml');
    writeFileSync(
      tuned,
      'store:\n  path: team.db\n  redact: ["acct-[0-9]{6}"]\n  replace_default_redactions: true\n  max_stored_bytes: 4096\n',
    );
    expect(await resolveStorePath({ config: tuned }, environment())).toEqual({
      path: path.join(dir, 'team.db'),
      source: `store.path in ${tuned}`,
      storeOptions: { redact: ['acct-[0-9]{6}'], replaceDefaultRedactions: true, maxStoredBytes: 4096 },
    });
  });

  it('then $NOVARCH_STORE, then the default under the home directory', async () => {
    expect(await resolveStorePath({}, environment({ NOVARCH_STORE: 'env.db' }))).toEqual({
      path: '/work/ops/env.db',
      source: '$NOVARCH_STORE',
    });
    expect(await resolveStorePath({ store: ' ' }, environment({ NOVARCH_STORE: '' }))).toEqual({
      path: '/home/ana/.novarch/novarch.db',
      source: 'the default',
    });
  });

  it('throws the configuration error of a --config file that does not load', async () => {
    const bad = path.join(dir, 'bad.yaml');
    writeFileSync(bad, 'stor:\n  path: x.db\n');
    const failure = resolveStorePath({ config: bad }, environment());
    await expect(failure).rejects.toBeInstanceOf(NovarchConfigError);
    await expect(failure).rejects.toThrow(`${bad}:1:1  stor: unknown key "stor" at the top level`);
  });
});
