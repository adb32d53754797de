import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConsoleAppOptions, ConsoleOperator } from '../../src/console/index.js';
import { createConsoleApp, storeConsoleDeps } from '../../src/console/index.js';
import type { StoreConsoleDepsOptions } from '../../src/console/store-console-deps.js';
import {
  type Decision,
  type EvidenceRecord,
  type HoldRecord,
  loadRulesFile,
  NovarchEngine,
  type NovarchStore,
  openSqliteStore,
  type SessionRecord,
} from '../../src/index.js';

/** The hook-gate tests' rules: a refund needs a lookup of the customer (TEAM-1), over 500 is held (TEAM-2). */
const RULES_FILE = fileURLToPath(new URL('../fixtures/rules/cs-ops-gate.rules.yaml', import.meta.url));

/** Agent text that would run if the console did not escape it. */
export const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

/** Operators of the tests, by token: ana and bob on tenant acme, eve on globex, tess on acme's team `billing` only. */
export const OPERATORS: Record<string, ConsoleOperator> = {
  nvo_ana_secret: { id: 'op_ana', name: 'ana', role: 'operator', grants: [{ tenantId: 'acme' }] },
  nvo_bob_secret: { id: 'op_bob', name: 'bob', role: 'operator', grants: [{ tenantId: 'acme' }] },
  nvo_eve_secret: { id: 'op_eve', name: 'eve', role: 'admin', grants: [{ tenantId: 'globex' }] },
  nvo_tess_secret: {
    id: 'op_tess',
    name: 'tess',
    role: 'operator',
    grants: [{ tenantId: 'acme', teamId: 'billing' }],
  },
};

export interface ConsoleWorld {
  store: NovarchStore;
  engine: NovarchEngine;
  app: ReturnType<typeof createConsoleApp>;
  /** Operator ids revoked since (their console sessions end at the next request). */
  revoked: Set<string>;
  /** Opens a session of `tenant` (team cs-ops unless given), looks the customer up, and asks for a refund. */
  refund(options: {
    tenantId: string;
    teamId?: string;
    agentId?: string;
    customer?: string;
    amount: number;
    /** The amount's unit (`USD`), in the action context. */
    unit?: string;
    reasoning?: string;
    session?: SessionRecord;
  }): Promise<Decision & { session: SessionRecord }>;
  /** A held write whose verdict cites the session's lookup (rule TEAM-9), stored directly. */
  holdCitingEvidence(options: { tenantId: string; reasoning: string; recordId: string }): Promise<{
    hold: HoldRecord;
    evidence: EvidenceRecord;
    session: SessionRecord;
  }>;
  close(): Promise<void>;
}

/** A SQLite store with the gate rules, an engine, and the console over them (the test operators). */
export async function createConsoleWorld(
  options: ConsoleAppOptions & { deps?: Partial<StoreConsoleDepsOptions> } = {},
): Promise<ConsoleWorld> {
  const folder = mkdtempSync(path.join(tmpdir(), 'novarch-console-'));
  const store = await openSqliteStore(path.join(folder, 'novarch.db'));
  const engine = new NovarchEngine({
    store,
    rules: [await loadRulesFile(RULES_FILE)],
    holdWindowSeconds: 300,
    pollIntervalMs: 50,
  });
  const revoked = new Set<string>();
  const { deps: depsOptions, ...appOptions } = options;
  const deps = storeConsoleDeps({
    store,
    verifyOperatorToken: async (token) => {
      const operator = OPERATORS[token];
      return operator === undefined || revoked.has(operator.id) ? undefined : operator;
    },
    findOperator: async (id) =>
      revoked.has(id) ? undefined : Object.values(OPERATORS).find((operator) => operator.id === id),
    ...depsOptions,
  });
  const app = createConsoleApp(deps, { eventsPollMs: 100, ...appOptions });
  return {
    store,
    engine,
    app,
    revoked,
    async refund(request) {
      const session =
        request.session ??
        (await engine.openSession({
          tenantId: request.tenantId,
          teamId: request.teamId ?? 'cs-ops',
          agentId: request.agentId ?? 'refund-bot',
        }));
      const customer = request.customer ?? 'C1';
      const at = new Date().toISOString();
      await store.recordEvidence({
        sessionId: session.id,
        toolName: 'mcp__cs__lookup_customer',
        input: { customer_id: customer },
        output: { name: 'Ana Lima', plan: 'gold' },
        isError: false,
        startedAt: at,
        finishedAt: at,
      });
      const decision = await engine.decide(session, {
        actionType: 'issue_refund',
        toolName: 'mcp__cs__issue_refund',
        input: { customer_id: customer, amount: request.amount },
        context: {
          recordId: customer,
          summary: `refund ${request.amount} to ${customer}`,
          amount: request.amount,
          ...(request.unit === undefined ? {} : { unit: request.unit }),
        },
        ...(request.reasoning === undefined ? {} : { reasoning: request.reasoning }),
      });
      return { ...decision, session };
    },
    async holdCitingEvidence({ tenantId, reasoning, recordId }) {
      const session = await engine.openSession({ tenantId, teamId: 'cs-ops', agentId: 'refund-bot' });
      const at = new Date().toISOString();
      const evidence = await store.recordEvidence({
        sessionId: session.id,
        toolName: 'mcp__cs__lookup_customer',
        input: { customer_id: recordId },
        output: { note: reasoning },
        isError: false,
        startedAt: at,
        finishedAt: at,
      });
      const action = await store.recordAction({
        sessionId: session.id,
        actionType: 'issue_refund',
        toolName: 'mcp__cs__issue_refund',
        input: { customer_id: recordId, amount: 900 },
        context: { recordId, summary: `refund 900 to ${recordId}`, amount: 900 },
        reasoning,
      });
      await store.recordVerdict({
        actionId: action.id,
        sessionId: session.id,
        source: 'judge',
        verdict: {
          kind: 'hold',
          citations: {
            ruleIds: ['TEAM-9'],
            evidenceIds: [evidence.id],
            rationale: 'the lookup shows a gold plan',
          },
        },
      });
      const hold = await store.createHold(action.id, session.id, new Date(Date.now() + 300_000));
      return { hold, evidence, session };
    },
    async close() {
      await store.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
