import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/index.js';
import { recordRefund, scope } from '../store/conformance-context.js';
import { createTempStoreFiles } from '../store/temp-store-file.js';
import { runNovarch as novarch } from './support/run-novarch-cli.js';

// `novarch audit verify` and `novarch audit export` through the real bin, on a store edited by hand.

const files = createTempStoreFiles();
afterAll(() => files.cleanup());

/** A store with a pass, a hold and its approval, a kill and one rules push. */
async function storeWithDecisions() {
  const file = files.next();
  const store = await openSqliteStore(file);
  const session = await store.createSession(scope(), 300);
  const action = await recordRefund(store, session, 700);
  const verdict = await store.recordVerdict({
    actionId: action.id,
    sessionId: session.id,
    source: 'judge',
    verdict: { kind: 'hold', citations: { ruleIds: ['big'], evidenceIds: [], rationale: 'over 500' } },
  });
  const hold = await store.createHold(action.id, session.id, new Date(Date.now() + 300_000));
  await store.decideHold(hold.id, 'approved', 'operator:ana');
  await store.killSession(session.id, 'done');
  await store.pushRuleSet({ team: 'support', content: 'rules: []\n', pushedBy: 'admin' });
  await store.close();
  return { file, session, action, verdict, hold };
}

function writeKeys(folder: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const key = path.join(folder, 'signing.pem');
  const pub = path.join(folder, 'signing.pub');
  writeFileSync(key, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(pub, publicKey.export({ type: 'spki', format: 'pem' }));
  return { key, pub };
}

describe('novarch audit verify', () => {
  it('passes an untouched store (exit 0) and names an edited verdict (exit 5)', async () => {
    const { file, verdict } = await storeWithDecisions();
    const clean = await novarch(['audit', 'verify', '--store', file]);
    expect(clean.stderr).toBe('');
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(
      /^rules:support {2}1 link, head [0-9a-f]{12} {2}intact\ntenant:acme {2}4 links, head [0-9a-f]{12} {2}intact\nAll 2 chains intact\.\n$/,
    );

    const database = new Database(file);
    database.prepare("update verdicts set kind = 'pass' where id = ?").run(verdict.id);
    database.close();
    const tampered = await novarch(['audit', 'verify', '--store', file, '--tenant', 'acme']);
    expect(tampered.code).toBe(5);
    expect(tampered.stdout).toContain(
      `  ✗ The verdict ${verdict.id} (link 1) was edited after it was recorded: its content does not match the chain.\n`,
    );
    expect(tampered.stdout).toContain('1 problem: the audit trail was changed outside Novarch (exit 5).');
    const json = await novarch(['audit', 'verify', '--store', file, '--json']);
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stdout)).toMatchObject({
      intact: false,
      chains: [
        { chain: 'rules:support' },
        { chain: 'tenant:acme', problems: [{ kind: 'edited_record', recordId: verdict.id }] },
      ],
    });
    // The plain audit listing still works beside its subcommands.
    expect((await novarch(['audit', '--store', file])).code).toBe(0);
  });

  it('exports signed chains that verify offline; an edited export or another key fails (exit 5)', async () => {
    const { file, hold } = await storeWithDecisions();
    const folder = path.dirname(file);
    const { key, pub } = writeKeys(folder);
    const out = path.join(folder, 'audit.json');
    const exported = await novarch(['audit', 'export', '--store', file, '--out', out], {
      NOVARCH_AUDIT_SIGNING_KEY_FILE: key,
    });
    expect(exported).toMatchObject({ code: 0, stderr: '' });
    const ok = await novarch(['audit', 'verify', '--export', out, '--public-key', pub]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/signature: valid \(key sha256:[0-9a-f]{64}\)\nAll 2 chains intact\.\n$/);

    // An edited record inside the file: its link's digest no longer matches, nor the signature.
    const text = readFileSync(out, 'utf8');
    const edited = path.join(folder, 'edited.json');
    writeFileSync(edited, text.replace('"decidedBy": "operator:ana"', '"decidedBy": "operator:mallory"'));
    const bad = await novarch(['audit', 'verify', '--export', edited]);
    expect(bad.code).toBe(5);
    expect(bad.stdout).toContain(
      `  ✗ The hold decision ${hold.id} (link 3) does not match its link: edited.\n`,
    );
    expect(bad.stdout).toMatch(
      /signature: invalid \(key sha256:[0-9a-f]{64}\)\n {2}✗ The signature \(key sha256:[0-9a-f]{64}\) does not match the export: it was changed after it was signed\.\n/,
    );

    // Signed, unchanged, but by another key than the one required.
    const other = writeKeys(files.next().replace(/novarch\.db$/, ''));
    const wrongKey = await novarch(['audit', 'verify', '--export', out, '--public-key', other.pub]);
    expect(wrongKey.code).toBe(5);
    expect(wrongKey.stdout).toMatch(
      /✗ The export is signed by sha256:[0-9a-f]{64}, not by the required key sha256:[0-9a-f]{64}\./,
    );

    // Unsigned exports verify their chains; requiring a key then fails.
    const unsigned = path.join(folder, 'unsigned.json');
    expect((await novarch(['audit', 'export', '--store', file, '--out', unsigned])).code).toBe(0);
    expect(await novarch(['audit', 'verify', '--export', unsigned])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('signature: none (the export is not signed)'),
    });
    expect((await novarch(['audit', 'verify', '--export', unsigned, '--public-key', pub])).code).toBe(5);
  });

  it('refuses a bad key, a file that is not an export and flags that do not apply (exit 2)', async () => {
    const { file } = await storeWithDecisions();
    const folder = path.dirname(file);
    const notAKey = path.join(folder, 'rsa.pem');
    writeFileSync(
      notAKey,
      generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
    );
    const rsa = await novarch(['audit', 'export', '--store', file, '--signing-key', notAKey]);
    expect(rsa.code).toBe(2);
    expect(rsa.stderr).toContain(
      `The audit signing key ${notAKey} is a rsa key; audit exports are signed with Ed25519. Make one with: openssl genpkey -algorithm ed25519 -out audit-signing-key.pem`,
    );
    const garbage = path.join(folder, 'garbage.json');
    writeFileSync(garbage, '{"format":"something-else"}');
    const notExport = await novarch(['audit', 'verify', '--export', garbage]);
    expect(notExport.code).toBe(2);
    expect(notExport.stderr).toContain(`${garbage} is not a Novarch audit export (format 1): at format:`);
    const mixed = await novarch(['audit', 'verify', '--export', garbage, '--tenant', 'acme']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain(
      'novarch audit verify --export checks the whole file offline: drop --tenant, --team, --server and --store.',
    );
    const noExport = await novarch(['audit', 'verify', '--store', file, '--public-key', notAKey]);
    expect(noExport.stderr).toContain(
      '--public-key checks the signature of an export: give the file with --export.',
    );
  });
});
