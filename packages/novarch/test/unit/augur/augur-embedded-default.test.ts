import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { resetEmbeddedEngine } from '../../../src/augur/choose-engine.js';
import { type EmbeddedEngine, openEmbeddedEngine } from '../../../src/augur/open-embedded-engine.js';
import { augur, NovarchConfigError, NovarchToolGovernor, openSqliteStore } from '../../../src/index.js';
import {
  GOVERNOR_RULES_YAML,
  LOOKUP,
  REFUND,
  refundContext,
  SCOPE,
} from '../governor/support/governor-world.js';

// Issue 14 item 14: `augur.session` without an engine runs on the embedded default (the seed's own
// example needs nothing but the decorator). Each test works in its own temp folder as the working
// directory the default resolves against; the warning goes to a list instead of stderr.

const root = mkdtempSync(path.join(os.tmpdir(), 'novarch-embedded-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let opened: EmbeddedEngine[] = [];
afterEach(async () => {
  for (const each of opened) await each.engine.store.close();
  opened = [];
  await resetEmbeddedEngine();
});

let folders = 0;
function folder(files: Record<string, string> = {}): string {
  const dir = path.join(root, `case-${folders++}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

async function open(cwd: string, env: Record<string, string> = {}) {
  const warnings: string[] = [];
  const embedded = await openEmbeddedEngine({
    env,
    cwd,
    homeDirectory: '/home/ana',
    warn: (m) => warnings.push(m),
  });
  opened.push(embedded);
  return { ...embedded, warnings };
}

const refund = {
  actionType: 'issue_refund',
  toolName: REFUND,
  context: { recordId: 'C1', summary: 'refund C1', amount: 50 },
};

describe('the embedded default engine', () => {
  /**
   * Proves the default without any configuration: the store at .novarch/novarch.db of the working
   * directory (created 0600 in a 0700 folder), no rules, so a write is held for an operator and
   * never passed, and a warning says so once per process, with where the holds are decided.
   */
  it('without configuration: .novarch/novarch.db, every write held, one warning', async () => {
    const cwd = folder();
    const { engine, storePath, configFile, warnings } = await open(cwd);
    expect(storePath).toBe(path.join(cwd, '.novarch', 'novarch.db'));
    expect(configFile).toBeUndefined();
    expect(statSync(storePath).mode & 0o777).toBe(0o600);
    expect(warnings).toEqual([
      `novarch: no rules are configured (no novarch.yaml in ${cwd} and $NOVARCH_CONFIG is not set): every governed write is held for an operator, never passed. Decide holds with \`novarch holds list --store ${storePath}\`, or list rules files under rules: in novarch.yaml.`,
    ]);
    const session = await engine.openSession({ ...SCOPE });
    expect(session.holdWaitSeconds).toBe(300);
    const decision = await engine.decide(session, { ...refund, input: {} }, { release: true });
    expect(decision.verdict).toEqual({
      kind: 'hold',
      citations: {
        ruleIds: [],
        evidenceIds: [],
        rationale:
          'no rules are configured, so every write waits for an operator (list rules files under rules: in novarch.yaml)',
      },
    });
    expect(decision.hold?.status).toBe('pending');
    expect(decision.release).toBeUndefined();
    // Once per process: the next default opened says nothing.
    expect((await open(folder())).warnings).toEqual([]);
  });

  /**
   * Proves novarch.yaml in the working directory is read: its store (with its redaction, item 12),
   * hold window and rules, which judge writes as any engine does (a pass needs its lookup).
   */
  it('reads novarch.yaml: its store, redaction, hold window and rules', async () => {
    const cwd = folder({
      'rules.yaml': GOVERNOR_RULES_YAML,
      'novarch.yaml': [
        'hold_window_seconds: 60',
        'store:',
        '  path: data/governed.db',
        "  redact: ['acct-[0-9]{6}']",
        '  max_stored_bytes: 2048',
        'rules: [rules.yaml]',
        '',
      ].join('\n'),
    });
    const { engine, storePath, configFile, warnings } = await open(cwd);
    expect(storePath).toBe(path.join(cwd, 'data', 'governed.db'));
    expect(configFile).toBe(path.join(cwd, 'novarch.yaml'));
    expect(warnings).toEqual([]);
    const session = await engine.openSession({ ...SCOPE });
    expect(session.holdWaitSeconds).toBe(60);
    const evidence = await engine.store.recordEvidence({
      sessionId: session.id,
      toolName: LOOKUP,
      input: { customer_id: 'C1' },
      output: { note: 'account acct-123456 in good standing', padding: 'x'.repeat(3000) },
      isError: false,
      startedAt: new Date().toISOString(),
      finishedAt: new Date().toISOString(),
    });
    expect(evidence.output).toMatchObject({ novarchTruncated: { limit: 2048 } });
    expect(JSON.stringify(evidence.output)).toContain('account [redacted] in good standing');
    const decision = await engine.decide(
      session,
      { ...refund, input: { customer_id: 'C1', amount: 50 } },
      { release: true },
    );
    expect(decision.verdict.kind).toBe('pass');
    expect(decision.release?.released).toBe(true);
  });

  /** Proves $NOVARCH_CONFIG names the configuration and $NOVARCH_STORE wins over its store.path. */
  it('takes $NOVARCH_CONFIG and $NOVARCH_STORE, relative to the working directory', async () => {
    const cwd = folder({ 'ops.yaml': 'store:\n  path: from-config.db\nrules: []\n' });
    const fromConfig = await open(cwd, { NOVARCH_CONFIG: 'ops.yaml' });
    expect(fromConfig.storePath).toBe(path.join(cwd, 'from-config.db'));
    expect(fromConfig.warnings).toEqual([
      `novarch: no rules are configured (rules: in ${path.join(cwd, 'ops.yaml')} lists no rules files): every governed write is held for an operator, never passed. Decide holds with \`novarch holds list --store ${fromConfig.storePath}\`, or list rules files under rules: in novarch.yaml.`,
    ]);
    const fromEnv = await open(cwd, { NOVARCH_CONFIG: 'ops.yaml', NOVARCH_STORE: 'env.db' });
    expect(fromEnv.storePath).toBe(path.join(cwd, 'env.db'));
    expect(existsSync(path.join(cwd, '.novarch'))).toBe(false);
  });

  /** Proves a configuration that does not load rejects with its NovarchConfigError, naming the file. */
  it('rejects with the configuration error of a $NOVARCH_CONFIG that does not load', async () => {
    const cwd = folder({ 'bad.yaml': 'store:\n  max_stored_bytes: 10\n' });
    const bad = path.join(cwd, 'bad.yaml');
    const failure = open(cwd, { NOVARCH_CONFIG: bad });
    await expect(failure).rejects.toBeInstanceOf(NovarchConfigError);
    await expect(failure).rejects.toThrow(
      `1 problem in Novarch configuration:\n${bad}:2:21  store.max_stored_bytes: must be at least 1024, got 10`,
    );
    const missing = path.join(cwd, 'absent.yaml');
    await expect(open(cwd, { NOVARCH_CONFIG: missing })).rejects.toThrow(
      `${missing}  Novarch configuration file not found`,
    );
  });
});

describe('augur.session without an engine', () => {
  /**
   * Proves the seed's example works with nothing but the decorator: augur.session without an
   * engine (nor augur.configure) opens the embedded default from the process's environment,
   * warns once on stderr that no rules are configured, and holds a write until an operator
   * approves it (then it runs); later sessions share the same engine.
   */
  it('runs on the embedded default, holding every write for an operator', async () => {
    const cwd = folder({ 'novarch.yaml': 'rules: []\n' });
    const storePath = path.join(cwd, 'seed.db');
    vi.stubEnv('NOVARCH_CONFIG', path.join(cwd, 'novarch.yaml'));
    vi.stubEnv('NOVARCH_STORE', storePath);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const operator = await openSqliteStore(storePath);
      const ran: string[] = [];
      const outcome = await augur.session({ ...SCOPE }, async () => {
        const governor = new NovarchToolGovernor({
          toolKinds: { [REFUND]: 'write' },
          writeSpecs: { [REFUND]: { actionType: 'issue_refund', contextBuilder: refundContext } },
        });
        const waiting = governor.run({ toolName: REFUND, input: { customer_id: 'C1', amount: 5 } }, () => {
          ran.push('refund');
          return 'refunded';
        });
        const sessionId = augur.current()?.record.id ?? '';
        for (let tries = 0; tries < 200; tries++) {
          const [hold] = await operator.listHolds({ sessionId, status: 'pending' });
          if (hold) {
            expect(ran).toEqual([]);
            await operator.decideHold(hold.id, 'approved', 'operator-ana', 'fine');
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        return waiting;
      });
      expect(outcome).toEqual({ kind: 'ran', output: 'refunded', isError: false });
      expect(ran).toEqual(['refund']);
      await augur.session({ ...SCOPE }, () => undefined);
      const warnings = stderr.mock.calls
        .map(([text]) => String(text))
        .filter((text) => text.startsWith('novarch:'));
      expect(warnings).toEqual([
        `novarch: no rules are configured (rules: in ${path.join(cwd, 'novarch.yaml')} lists no rules files): every governed write is held for an operator, never passed. Decide holds with \`novarch holds list --store ${storePath}\`, or list rules files under rules: in novarch.yaml.\n`,
      ]);
      expect(await operator.listSessions()).toHaveLength(2);
      await operator.close();
    } finally {
      stderr.mockRestore();
      vi.unstubAllEnvs();
    }
  });
});
