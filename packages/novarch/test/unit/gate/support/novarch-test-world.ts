import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitUntil } from '@holodeck/testkit';
import {
  type ActionContext,
  type ActiveSession,
  loadRulesFile,
  NovarchEngine,
  NovarchHookGate,
  type NovarchStore,
  openSqliteStore,
  type RuleSet,
} from '../../../../src/index.js';
import { RULES_YAML } from '../../../e2e/support/gate-fixture.js';

/** The session scope the e2e fixture's rules (team cs-ops) apply to. */
export const SCOPE = { tenantId: 'acme', teamId: 'cs-ops', agentId: 'cs-bot' } as const;
export const LOOKUP = 'mcp__cs__lookup_customer';
export const REFUND = 'mcp__cs__issue_refund';
export const DELETE_ACCOUNT = 'mcp__cs__delete_account';

/**
 * The refund write's context, built as the e2e fixture builds it. It throws on an input without
 * customer_id and amount, and (for tests that inject a failing builder) on `explode: true`.
 */
export function refundContext(args: Record<string, unknown>): ActionContext {
  if (args.explode === true) throw new Error('the context builder exploded');
  if (typeof args.customer_id !== 'string' || typeof args.amount !== 'number')
    throw new Error('customer_id and amount are required');
  return { recordId: args.customer_id, summary: `refund ${args.customer_id}`, amount: args.amount };
}

/** A real SQLite store in a temp folder and the e2e fixture's rules (TEAM-1 lookup first, TEAM-2 hold over 500). */
export interface NovarchTestBase {
  store: NovarchStore;
  rules: RuleSet[];
  close(): Promise<void>;
}

export async function openNovarchTestBase(): Promise<NovarchTestBase> {
  const directory = mkdtempSync(path.join(tmpdir(), 'novarch-unit-'));
  const rulesFile = path.join(directory, 'rules.yaml');
  writeFileSync(rulesFile, RULES_YAML);
  const store = await openSqliteStore(path.join(directory, 'novarch.db'));
  return {
    store,
    rules: [await loadRulesFile(rulesFile)],
    async close() {
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** An engine over `store` (often a FaultyStore around the base's) that polls holds quickly. */
export function testEngine(
  base: NovarchTestBase,
  store: NovarchStore,
  options: { holdWindowSeconds?: number; pollIntervalMs?: number } = {},
): NovarchEngine {
  return new NovarchEngine({
    store,
    rules: base.rules,
    holdWindowSeconds: options.holdWindowSeconds ?? 30,
    pollIntervalMs: options.pollIntervalMs ?? 10,
  });
}

/** Opens a session on `engine` and the gate of the e2e fixture's tools for it. */
export async function openTestGate(
  engine: NovarchEngine,
  options: { warn?: (message: string) => void } = {},
): Promise<{ session: ActiveSession; gate: NovarchHookGate }> {
  const session: ActiveSession = { engine, record: await engine.openSession({ ...SCOPE }) };
  const gate = await new NovarchHookGate({
    toolKinds: { [LOOKUP]: 'read', [REFUND]: 'write' },
    writeSpecs: { [REFUND]: { actionType: 'issue_refund', contextBuilder: refundContext } },
    session,
    warn: options.warn ?? (() => {}),
  }).open();
  return { session, gate };
}

/** Resolves once `check` returns a value (polled every 5 ms), or rejects after `timeoutMs`. */
export function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  return waitUntil(check, { timeoutMs, what: 'the awaited store change', intervalMs: 5 });
}
