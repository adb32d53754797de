import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitUntil } from '@holodeck/testkit';
import {
  type ActionContext,
  type ActiveSession,
  type GovernedToolOutcome,
  type LlmJudge,
  loadRulesFile,
  NovarchEngine,
  type NovarchStore,
  NovarchToolGovernor,
  type NovarchToolGovernorOptions,
  openSqliteStore,
  type RuleSet,
} from '../../../../src/index.js';
import { FaultyStore } from '../../gate/support/faulty-store.js';

// A governed agent loop of our own (no agent framework): tools named as an AI SDK program names
// them, their `execute` functions logging what really ran, a NovarchToolGovernor around them, a
// real SQLite store in a temp folder (wrapped so a test can make it fail) and team rules.

export const LOOKUP = 'lookup_customer';
export const REFUND = 'issue_refund';
export const DELETE_ACCOUNT = 'delete_account';
export const SCOPE = { tenantId: 'acme', teamId: 'cs-ops', agentId: 'cs-bot' } as const;

/**
 * The hook-gate fixture's rules for these tool names, with TEAM-1 citing only lookups that did not
 * fail: TEAM-1 kills a refund without a successful lookup of the same customer, TEAM-2 holds one
 * over 500.
 */
export const GOVERNOR_RULES_YAML = `team: cs-ops
action_types: [issue_refund]
rules:
  - id: TEAM-1
    version: 1
    description: A refund needs a prior successful lookup of the same customer.
    applies_to: [issue_refund]
    on_violation: kill
    condition: evidence.exists(e, e.tool == "${LOOKUP}" && !e.is_error && e.input.customer_id == action.context.recordId)
  - id: TEAM-2
    version: 1
    description: Refunds over 500 are held for a human.
    applies_to: [issue_refund]
    on_violation: hold
    condition: action.context.amount <= 500
`;

/** Rules whose only rule has no condition: the LLM judge decides every refund. */
export const LLM_RULES_YAML = `team: cs-ops
action_types: [issue_refund]
rules:
  - id: TEAM-LLM
    version: 1
    description: The refund must be justified by the conversation.
    applies_to: [issue_refund]
    on_violation: kill
`;

/** The refund's context; throws on an input without customer_id and amount, or with `explode: true`. */
export function refundContext(args: Record<string, unknown>): ActionContext {
  if (args.explode === true) throw new Error('the context builder exploded');
  if (typeof args.customer_id !== 'string' || typeof args.amount !== 'number')
    throw new Error('customer_id and amount are required');
  return { recordId: args.customer_id, summary: `refund ${args.customer_id}`, amount: args.amount };
}

/** The shared store and rules of one test file. */
export interface GovernorBase {
  store: NovarchStore;
  rules: RuleSet[];
  llmRules: RuleSet[];
  close(): Promise<void>;
}

export async function openGovernorBase(): Promise<GovernorBase> {
  const directory = mkdtempSync(path.join(tmpdir(), 'novarch-governor-'));
  const rulesFile = path.join(directory, 'rules.yaml');
  const llmRulesFile = path.join(directory, 'llm.rules.yaml');
  writeFileSync(rulesFile, GOVERNOR_RULES_YAML);
  writeFileSync(llmRulesFile, LLM_RULES_YAML);
  const store = await openSqliteStore(path.join(directory, 'novarch.db'));
  return {
    store,
    rules: [await loadRulesFile(rulesFile)],
    llmRules: [await loadRulesFile(llmRulesFile)],
    async close() {
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

export interface WorldOptions {
  holdWindowSeconds?: number;
  pollIntervalMs?: number;
  /** The store the engine uses; default a FaultyStore around the base's. */
  store?: FaultyStore;
  /** Judge with the LLM rules and this judge instead of the CEL rules. */
  llmJudge?: LlmJudge;
  governor?: Partial<NovarchToolGovernorOptions>;
}

/** What the tools' `execute` functions really did, in order. */
export type Executed = { tool: string; input: unknown };

/** One governed session and its tools. */
export interface GovernorWorld {
  store: FaultyStore;
  engine: NovarchEngine;
  session: ActiveSession;
  sessionId: string;
  governor: NovarchToolGovernor;
  executed: Executed[];
  lookUp(customer: string, options?: CallOptions): Promise<GovernedToolOutcome<string>>;
  refund(customer: string, amount: number, options?: CallOptions): Promise<GovernedToolOutcome<string>>;
  /** Calls a tool with any name and input through the governor; its execute logs the call. */
  call(toolName: string, input: unknown, options?: CallOptions): Promise<GovernedToolOutcome<string>>;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** What execute does: resolve (default), throw, or wait for the promise first. */
  behaviour?: 'throw' | Promise<void>;
}

export async function openGovernorWorld(
  base: GovernorBase,
  options: WorldOptions = {},
): Promise<GovernorWorld> {
  const store = options.store ?? new FaultyStore(base.store);
  const engine = new NovarchEngine({
    store,
    rules: options.llmJudge ? base.llmRules : base.rules,
    ...(options.llmJudge ? { llmJudge: options.llmJudge } : {}),
    holdWindowSeconds: options.holdWindowSeconds ?? 30,
    pollIntervalMs: options.pollIntervalMs ?? 10,
  });
  const session: ActiveSession = { engine, record: await engine.openSession({ ...SCOPE }) };
  const governor = new NovarchToolGovernor({
    session,
    toolKinds: { [LOOKUP]: 'read', [REFUND]: 'write' },
    writeSpecs: { [REFUND]: { actionType: 'issue_refund', contextBuilder: refundContext } },
    ...options.governor,
  });
  const executed: Executed[] = [];
  const call = (toolName: string, input: unknown, callOptions: CallOptions = {}) =>
    governor.run(
      { toolName, input, ...(callOptions.signal ? { signal: callOptions.signal } : {}) },
      async () => {
        if (callOptions.behaviour instanceof Promise) await callOptions.behaviour;
        executed.push({ tool: toolName, input });
        if (callOptions.behaviour === 'throw') throw new Error(`${toolName} service down`);
        return `${toolName} ok`;
      },
    );
  return {
    store,
    engine,
    session,
    sessionId: session.record.id,
    governor,
    executed,
    call,
    lookUp: (customer, callOptions) => call(LOOKUP, { customer_id: customer }, callOptions),
    refund: (customer, amount, callOptions) =>
      call(REFUND, { customer_id: customer, amount, reasoning: 'customer asked' }, callOptions),
  };
}

/** Resolves once `check` returns a value (polled every 5 ms), or rejects after `timeoutMs`. */
export function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  return waitUntil(check, { timeoutMs, what: 'the awaited store change', intervalMs: 5 });
}

/** A promise and the function that resolves it. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
