import { mkdtempSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NovarchServerProcess, startServerProcess } from './support/novarch-server-process.js';
import { createSecret, runNovarch } from './support/run-novarch-cli.js';

// `novarch keys` and `novarch operators` with --server: done by a real `novarch serve` process
// through its /v1/admin routes, under an admin token, within that token's grants.

let server: NovarchServerProcess;
let store = '';
let admin = '';
let operator = '';

const asToken = (token: string, args: string[]) =>
  runNovarch([...args, '--server', server.url], { NOVARCH_TOKEN: token });
const me = (credential: string) =>
  fetch(`${server.url}/v1/me`, { headers: { authorization: `Bearer ${credential}` } });

beforeAll(async () => {
  store = `sqlite:${path.join(mkdtempSync(path.join(tmpdir(), 'novarch-identities-')), 'server.db')}`;
  admin = await createSecret([
    'operators',
    'create',
    '--store',
    store,
    '--name',
    'root',
    '--role',
    'admin',
    '--grant',
    'acme',
  ]);
  operator = await createSecret([
    'operators',
    'create',
    '--store',
    store,
    '--name',
    'opa',
    '--grant',
    'acme',
  ]);
  server = await startServerProcess(['--store', store]);
});
afterAll(() => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
});

describe('novarch keys --server', () => {
  it('creates a key that works at once, lists it without its secret, and revokes it (401 after)', async () => {
    const created = await asToken(admin, [
      'keys',
      'create',
      '--tenant',
      'acme',
      '--name',
      'cs-bot',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const { key, secret } = JSON.parse(created.stdout);
    expect(key).toMatchObject({ tenantId: 'acme', name: 'cs-bot', id: expect.stringMatching(/^nva_/) });
    expect(await (await me(secret)).json()).toEqual({
      kind: 'agent',
      id: key.id,
      name: 'cs-bot',
      tenantId: 'acme',
    });

    const listed = await asToken(admin, ['keys', 'list', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      { id: key.id, tenantId: 'acme', name: 'cs-bot', createdAt: key.createdAt },
    ]);
    expect(listed.stdout).not.toContain(hiddenPartOf(secret));
    const plain = await asToken(admin, ['keys', 'create', '--tenant', 'acme', '--name', 'cs-bot-2']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(
      new RegExp(
        `Revoke it with \`novarch keys revoke nva_[0-9a-f]{12} --server ${server.url.replace(/\./g, '\\.')}\`.\n$`,
      ),
    );
    const table = await asToken(admin, ['keys', 'list', '--tenant', 'globex']);
    expect(table.stdout).toBe('No agent keys.\n');

    const revoked = await asToken(admin, ['keys', 'revoke', key.id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(
      new RegExp(`^Agent key ${key.id} \\(acme, cs-bot\\) revoked at .+\\.\\n$`),
    );
    expect((await me(secret)).status).toBe(401);
  });

  it('refuses what the token may not do, each with its message', async () => {
    const otherTenant = await asToken(admin, ['keys', 'create', '--tenant', 'globex', '--name', 'bot']);
    expect(otherTenant).toMatchObject({ code: 2, stdout: '' });
    expect(otherTenant.stderr).toBe('error: this admin token is not granted tenant "globex" (HTTP 403)\n');
    const notAdmin = await asToken(operator, ['keys', 'list']);
    expect(notAdmin.code).toBe(2);
    expect(notAdmin.stderr).toBe(
      'error: only an admin token may manage agent keys, operator tokens and rules (HTTP 403)\n',
    );
    const unknown = await asToken(admin, ['keys', 'revoke', 'nva_000000000000']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'error: No agent key "nva_000000000000": `novarch keys list` shows the keys (ids start with nva_).\n',
    );
    const noToken = await runNovarch(['keys', 'list', '--server', server.url], { NOVARCH_TOKEN: '' });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toBe(
      'error: --server needs an operator token in $NOVARCH_TOKEN (nvo_…; an admin creates one with `novarch operators create`).\n',
    );
    const both = await asToken(admin, ['keys', 'list', '--store', store]);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe(
      "error: --server works on the server's store: drop --store and --config, or drop --server.\n",
    );
    const revokedToken = await asToken('nvo_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', [
      'keys',
      'list',
    ]);
    expect(revokedToken.code).toBe(2);
    expect(revokedToken.stderr).toContain('(HTTP 401)');
  });

  it('an unreachable server exits 1 and says so', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const run = await runNovarch(['keys', 'list', '--server', `http://127.0.0.1:${port}`], {
      NOVARCH_TOKEN: admin,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `the Novarch server at http://127.0.0.1:${port} failed GET /v1/admin/keys: unreachable (ECONNREFUSED)`,
    );
    expect(run.stderr).not.toContain(admin);
  });
});

describe('novarch operators --server', () => {
  it('creates a token within the admin grants, lists and revokes it', async () => {
    const created = await asToken(admin, [
      'operators',
      'create',
      '--name',
      'bob',
      '--grant',
      'acme/cs-ops',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const { token, secret } = JSON.parse(created.stdout);
    expect(token).toMatchObject({
      name: 'bob',
      role: 'operator',
      grants: [{ tenantId: 'acme', teamId: 'cs-ops' }],
    });
    expect(await (await me(secret)).json()).toMatchObject({
      kind: 'operator',
      name: 'bob',
      role: 'operator',
    });

    const listed = await asToken(admin, ['operators', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^TOKEN +NAME +ROLE +GRANTS +GROUPS +NOT FOR +CREATED +REVOKED\n/);
    expect(listed.stdout).toContain(`${token.id}  bob   operator  acme/cs-ops`);
    expect(listed.stdout).not.toContain(hiddenPartOf(secret));

    const revoked = await asToken(admin, ['operators', 'revoke', token.id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`^Operator token ${token.id} \\(bob\\) revoked at .+\\.\\n$`));
    expect((await me(secret)).status).toBe(401);
  });

  it('refuses a grant beyond the admin token, a bad grant and a reserved name', async () => {
    const beyond = await asToken(admin, ['operators', 'create', '--name', 'eve', '--grant', 'globex']);
    expect(beyond.code).toBe(2);
    expect(beyond.stderr).toBe(
      'error: this admin token may not grant "globex": it is not granted it (HTTP 403)\n',
    );
    const bad = await asToken(admin, ['operators', 'create', '--name', 'eve', '--grant', 'a/b/c']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'error: --grant: "a/b/c" is not a grant: write TENANT, TENANT/TEAM or * (letters, digits, . _ -)\n',
    );
    const reserved = await asToken(admin, ['operators', 'create', '--name', 'judge', '--grant', 'acme']);
    expect(reserved.code).toBe(2);
    expect(reserved.stderr).toContain('judge');
  });
});

/** The part of a credential never shown again: everything after `<id>_` (base64url may itself contain `_`). */
function hiddenPartOf(secret: string): string {
  const hidden = secret.slice('nva_'.length + 12 + 1);
  expect(hidden).toHaveLength(43);
  return hidden;
}
