import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rulesContentHash } from '../../../src/model/rules-content-hash.js';
import { type RunningNovarchServer, startNovarchServer } from '../../../src/server/start-novarch-server.js';
import { RULES_V1, RULES_V2 } from '../../store/replay-scenario.js';
import { runNovarch } from './run-novarch-in-process.js';

// `novarch rules push|list|show|diff --server URL` with the token in $NOVARCH_TOKEN, against a
// server listening in this process; `rules test` stays on a store.

const dir = mkdtempSync(path.join(os.tmpdir(), 'novarch-rules-server-'));
let server: RunningNovarchServer;
let admin: string;
let operator: string;
let globexAdmin: string;

const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};
const remote = (token: string | undefined, ...args: string[]) =>
  runNovarch([...args, '--server', server.url], {
    cwd: dir,
    env: { USER: 'ana', ...(token === undefined ? {} : { NOVARCH_TOKEN: token }) },
  });

beforeAll(async () => {
  write('rules.yaml', RULES_V1);
  write('rules-v2.yaml', RULES_V2);
  server = await startNovarchServer({
    storeUrl: `sqlite:${path.join(dir, 'novarch.db')}`,
    host: '127.0.0.1',
    port: 0,
    rules: [],
    holdWindowSeconds: 30,
    log: () => {},
  });
  const { identities } = server.stores;
  admin = (
    await identities.createOperatorToken({ name: 'root', role: 'admin', grants: [{ tenantId: 'acme' }] })
  ).secret;
  operator = (
    await identities.createOperatorToken({ name: 'ana', role: 'operator', grants: [{ tenantId: 'acme' }] })
  ).secret;
  globexAdmin = (
    await identities.createOperatorToken({ name: 'gia', role: 'admin', grants: [{ tenantId: 'globex' }] })
  ).secret;
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const hash = (text: string) => `sha256:${rulesContentHash(text).slice(0, 12)}`;

describe('novarch rules --server', () => {
  it('pushes, lists, shows and diffs through the server', async () => {
    expect(await remote(admin, 'rules', 'push', 'rules.yaml', '--tenant', 'acme')).toEqual({
      code: 0,
      stdout: `Pushed ${dir}/rules.yaml to ${server.url} as acme/cs-ops v1 (${hash(RULES_V1)}, by root).\n`,
    });
    expect((await remote(admin, 'rules', 'push', 'rules.yaml', '--tenant', 'acme')).stdout).toBe(
      `Unchanged: ${dir}/rules.yaml is acme/cs-ops v1 on ${server.url} already (${hash(RULES_V1)}); nothing pushed.\n`,
    );
    const pushed = await remote(admin, 'rules', 'push', 'rules-v2.yaml', '--tenant', 'acme', '--json');
    expect(JSON.parse(pushed.stdout)).toMatchObject({
      created: true,
      tenantId: 'acme',
      team: 'cs-ops',
      version: 2,
      contentHash: rulesContentHash(RULES_V2),
      pushedBy: 'root',
    });
    // On the server's store, under the tenant.
    expect((await server.stores.store.listRuleSets()).map((set) => `${set.team} v${set.version}`)).toEqual([
      'acme/cs-ops v1',
      'acme/cs-ops v2',
    ]);

    const list = await remote(admin, 'rules', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      /^TENANT {2}TEAM {4}VERSION {2}CONTENT HASH {9}PUSHED {20}BY\nacme {4}cs-ops {2}v1 {7}sha256:[0-9a-f]{12} {2}\S+Z {2}root\nacme {4}cs-ops {2}v2 {7}sha256:[0-9a-f]{12} {2}\S+Z {2}root\n$/,
    );
    expect(
      JSON.parse((await remote(admin, 'rules', 'list', '--json', '--tenant', 'acme')).stdout),
    ).toHaveLength(2);
    expect((await remote(globexAdmin, 'rules', 'list')).stdout).toBe(
      'No rules pushed to this server yet (push a rules file with `novarch rules push FILE --server URL --tenant TENANT`).\n',
    );

    expect(await remote(admin, 'rules', 'show', 'cs-ops', '1', '--tenant', 'acme')).toEqual({
      code: 0,
      stdout: RULES_V1,
    });
    expect((await remote(admin, 'rules', 'show', 'cs-ops', '--tenant', 'acme')).stdout).toBe(RULES_V2);
    expect(
      JSON.parse((await remote(admin, 'rules', 'show', 'cs-ops', 'v2', '--tenant', 'acme', '--json')).stdout),
    ).toMatchObject({ tenantId: 'acme', version: 2, content: RULES_V2 });

    const diff = await remote(admin, 'rules', 'diff', 'cs-ops', '1', '2', '--tenant', 'acme');
    expect(diff.code).toBe(0);
    expect(diff.stdout.split('\n')[0]).toMatch(
      new RegExp(`^--- acme/cs-ops v1 \\(${hash(RULES_V1)}, pushed \\S+Z by root\\)$`),
    );
    expect(diff.stdout.split('\n')[1]).toMatch(/^\+\+\+ acme\/cs-ops v2 /);
    expect(diff.stdout).toMatch(/\n[-+] /);
  });

  it("refuses, with the server's reason", async () => {
    const bad = write('bad.yaml', 'team: cs-ops\naction_types: []\nrules: []\n');
    expect(await remote(admin, 'rules', 'push', bad, '--tenant', 'acme')).toMatchObject({
      code: 2,
      error: `1 problem in rules file:\n${bad}:2:1  action_types: must have at least one item`,
    });
    expect(await remote(operator, 'rules', 'list')).toMatchObject({
      code: 2,
      error: 'only an admin token may manage agent keys, operator tokens and rules (HTTP 403)',
    });
    expect(await remote(globexAdmin, 'rules', 'show', 'cs-ops', '--tenant', 'acme')).toMatchObject({
      code: 2,
      error: 'no team "cs-ops" of tenant "acme" is visible to this credential (HTTP 404)',
    });
    expect(await remote(admin, 'rules', 'show', 'cs-ops', '9', '--tenant', 'acme')).toMatchObject({
      code: 2,
      error: 'team "cs-ops" of tenant "acme" has no version 9: its versions are v1, v2 (HTTP 404)',
    });
    expect(await remote(`${admin}x`, 'rules', 'list')).toMatchObject({
      code: 2,
      error: 'the credential is not valid here (unknown or revoked): ask an admin for a new one (HTTP 401)',
    });
    expect(await remote(undefined, 'rules', 'list')).toMatchObject({
      code: 2,
      error:
        '--server needs an operator token in $NOVARCH_TOKEN (nvo_…; an admin creates one with `novarch operators create`).',
    });
    expect(await remote(admin, 'rules', 'push', 'rules.yaml')).toMatchObject({
      code: 2,
      error:
        "novarch rules push --server: pass --tenant TENANT, the tenant whose team's rules these are (a server keeps each tenant's rules apart).",
    });
    expect(await remote(admin, 'rules', 'diff', 'cs-ops', '1', '2')).toMatchObject({
      code: 2,
      error:
        "novarch rules diff --server: pass --tenant TENANT, the tenant whose team's rules these are (a server keeps each tenant's rules apart).",
    });
    expect(
      await remote(admin, 'rules', 'push', 'rules.yaml', '--tenant', 'acme', '--operator', 'eve'),
    ).toMatchObject({
      code: 2,
      error:
        '--operator has no effect with --server: the server records the operator of the token in $NOVARCH_TOKEN. Drop --operator.',
    });
    expect(await remote(admin, 'rules', 'test', 'rules.yaml')).toMatchObject({
      code: 2,
      error:
        "novarch rules test replays on a store, not through a server: drop --server and pass --store postgres://… (the server's store) or the SQLite file.",
    });
    const secret = admin.slice(admin.lastIndexOf('_') + 1);
    for (const args of [
      ['rules', 'list'],
      ['rules', 'show', 'cs-ops', '--tenant', 'globex'],
    ]) {
      const result = await remote(`${admin}x`, ...args);
      expect(result.error ?? '').not.toContain(secret);
    }
  });
});
