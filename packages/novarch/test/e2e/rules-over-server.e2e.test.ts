import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rulesContentHash } from '../../src/model/rules-content-hash.js';
import { agentOverHttp } from './support/agent-over-http.js';
import { type NovarchServerProcess, startServerProcess } from './support/novarch-server-process.js';
import { createSecret, runNovarch } from './support/run-novarch-cli.js';

// A real `novarch serve` judging with the rules of novarch.yaml until an admin pushes a team's
// rules with `novarch rules push --server`; from then on its verdicts cite the pushed version.

const GATE_RULES = fileURLToPath(new URL('../fixtures/rules/cs-ops-gate.rules.yaml', import.meta.url));

let server: NovarchServerProcess;
let directory = '';
let admin = '';
let agentKey = '';
let v1 = '';
let v2 = '';

const asAdmin = (args: string[]) => runNovarch([...args, '--server', server.url], { NOVARCH_TOKEN: admin });

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'novarch-rules-server-'));
  const store = `sqlite:${path.join(directory, 'server.db')}`;
  const config = path.join(directory, 'novarch.yaml');
  writeFileSync(config, `rules: [${JSON.stringify(GATE_RULES)}]\nserver:\n  store_url: ${store}\n`);
  const gate = await readFile(GATE_RULES, 'utf8');
  // v1 holds refunds over 300 (was 500 in the file); v2 over 800, its rule at version 2.
  v1 = path.join(directory, 'cs-ops-v1.rules.yaml');
  writeFileSync(v1, gate.replace('<= 500', '<= 300'));
  v2 = path.join(directory, 'cs-ops-v2.rules.yaml');
  writeFileSync(v2, gate.replace('<= 500', '<= 800').replace(/(id: TEAM-2\n\s+version: )1/, '$12'));
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
  agentKey = await createSecret(['keys', 'create', '--store', store, '--tenant', 'acme', '--name', 'cs-bot']);
  server = await startServerProcess(['--config', config]);
});
afterAll(() => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
});

async function heldOrPassed(amount: number) {
  const agent = agentOverHttp(server.url, agentKey);
  const session = await agent.openSession();
  await agent.lookup(session, 'C1');
  const answer = await agent.refund(session, 'C1', amount);
  expect(answer.status).toBe(200);
  return (answer.body as { verdict: { kind: string; citations: Record<string, unknown> } }).verdict;
}

describe('novarch rules --server, and the verdicts of a real server', () => {
  it('judges by the file, then by pushed v1, then by pushed v2, citing version and hash', async () => {
    expect(agentKey).toMatch(/^nva_/);
    const fromFile = await heldOrPassed(400);
    expect(fromFile).toMatchObject({
      kind: 'pass',
      citations: { ruleSets: [{ team: 'cs-ops', version: null }] },
    });

    const pushed = await asAdmin(['rules', 'push', v1, '--tenant', 'acme']);
    expect(pushed.code, pushed.stderr).toBe(0);
    const hash1 = rulesContentHash(await readFile(v1, 'utf8'));
    expect(pushed.stdout).toBe(
      `Pushed ${v1} to ${server.url} as acme/cs-ops v1 (sha256:${hash1.slice(0, 12)}, by root).\n`,
    );
    const first = await heldOrPassed(400);
    const set1 = { team: 'cs-ops', version: 1, contentHash: hash1 };
    expect(first).toMatchObject({
      kind: 'hold',
      citations: {
        ruleIds: ['TEAM-2'],
        ruleSets: [set1],
        rules: [{ id: 'TEAM-2', version: 1, ruleSet: set1 }],
      },
    });

    expect((await asAdmin(['rules', 'push', v2, '--tenant', 'acme'])).code).toBe(0);
    const hash2 = rulesContentHash(await readFile(v2, 'utf8'));
    const set2 = { team: 'cs-ops', version: 2, contentHash: hash2 };
    expect(await heldOrPassed(900)).toMatchObject({
      kind: 'hold',
      citations: {
        ruleIds: ['TEAM-2'],
        ruleSets: [set2],
        rules: [{ id: 'TEAM-2', version: 2, ruleSet: set2 }],
      },
    });
    expect(await heldOrPassed(400)).toMatchObject({ kind: 'pass', citations: { ruleSets: [set2] } });

    const list = await asAdmin(['rules', 'list', '--json']);
    expect(JSON.parse(list.stdout).map((set: { version: number }) => set.version)).toEqual([1, 2]);
    const shown = await asAdmin(['rules', 'show', 'cs-ops', '1', '--tenant', 'acme']);
    expect(shown.stdout).toBe(await readFile(v1, 'utf8'));
    const diff = await asAdmin(['rules', 'diff', 'cs-ops', '1', '2', '--tenant', 'acme']);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('-    condition: action.context.amount <= 300\n');
    expect(diff.stdout).toContain('+    condition: action.context.amount <= 800\n');
  });

  it('keeps rules test on a store', async () => {
    const refused = await asAdmin(['rules', 'test', v1]);
    expect(refused).toMatchObject({
      code: 2,
      stderr:
        "error: novarch rules test replays on a store, not through a server: drop --server and pass --store postgres://… (the server's store) or the SQLite file.\n",
    });
  });
});
