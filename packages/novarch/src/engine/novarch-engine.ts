import os from 'node:os';
import { WAITER_CHECK_IN_INTERVAL_MS } from '../model/hold-state.js';
import type { HoldWaiterIdentity, NovarchStore } from '../model/novarch-store.js';
import type {
  ActionContext,
  ActionRecord,
  HoldRecord,
  SessionRecord,
  SessionScope,
  Verdict,
} from '../model/records.js';
import { judgeAction } from '../rules/judge-action.js';
import type { LlmJudge } from '../rules/llm/llm-judge.js';
import type { RuleSet } from '../rules/rule-set.js';

/** `maxHoldS` value that takes the deployment's whole hold window. */
export const ADOPT_DEPLOYMENT_WINDOW = Symbol('novarch.adoptDeploymentWindow');

export interface NovarchEngineOptions {
  store: NovarchStore;
  rules: readonly RuleSet[];
  llmJudge?: LlmJudge;
  /** The longest an operator may take on a hold in this deployment (seconds). */
  holdWindowSeconds: number;
  /**
   * How often a waiting write checks its hold (ms). Default 250. Independently of it, the waiting
   * process checks in on the hold every `WAITER_CHECK_IN_INTERVAL_MS` (2 s), so operators can
   * tell a waiting agent from one that stopped.
   */
  pollIntervalMs?: number;
}

/** What a write asks the engine to judge. */
export interface ProposedAction {
  actionType: string;
  toolName: string;
  input: unknown;
  context: ActionContext;
  reasoning?: string;
}

/** The judgement of a write, with the records it left. */
export interface Decision {
  action: ActionRecord;
  verdict: Verdict;
  hold?: HoldRecord;
}

/**
 * Novarch's engine: sessions, evidence, judged actions and holds, every decision written to the
 * store before it takes effect. Stateless beyond the store, so several processes can share it.
 */
export class NovarchEngine {
  constructor(private readonly options: NovarchEngineOptions) {}

  get store(): NovarchStore {
    return this.options.store;
  }

  /** Negotiates the hold wait against the deployment's window and opens the session. */
  async openSession(
    scope: SessionScope,
    maxHoldS?: number | typeof ADOPT_DEPLOYMENT_WINDOW,
  ): Promise<SessionRecord> {
    const window = this.options.holdWindowSeconds;
    const wait =
      maxHoldS === ADOPT_DEPLOYMENT_WINDOW || maxHoldS === undefined
        ? window
        : Math.min(Math.max(0, maxHoldS), window);
    return this.store.createSession(scope, wait);
  }

  /** Judges a write against the session's team rules and evidence; holds get their record. */
  async decide(session: SessionRecord, proposed: ProposedAction): Promise<Decision> {
    const action = await this.store.recordAction({ sessionId: session.id, ...proposed });
    const evidence = await this.store.listEvidence(session.id);
    const verdict = await judgeAction({
      action,
      evidence,
      session,
      rules: this.options.rules,
      ...(this.options.llmJudge ? { llmJudge: this.options.llmJudge } : {}),
    });
    await this.store.recordVerdict({ actionId: action.id, sessionId: session.id, verdict, source: 'judge' });
    if (verdict.kind !== 'hold') return { action, verdict };
    const deadline = new Date(Date.now() + session.holdWaitSeconds * 1000);
    const hold = await this.store.createHold(action.id, session.id, deadline);
    return { action, verdict, hold };
  }

  /**
   * Waits for an operator to decide a hold. At the deadline the hold is decided `timed_out`
   * (fail-closed); if an operator decided first, that decision stands.
   *
   * While it waits it checks in on the hold (at once, then every `WAITER_CHECK_IN_INTERVAL_MS`,
   * however short the poll interval), so `novarch holds` can tell a hold someone waits on from one
   * whose process died. A check-in that fails is retried at the next poll instead of failing the
   * wait: a missing check-in only makes the hold look abandoned, which refuses operator decisions
   * (fail-closed) and never lets a write run.
   */
  async awaitHold(hold: HoldRecord, signal?: AbortSignal): Promise<HoldRecord> {
    const interval = this.options.pollIntervalMs ?? 250;
    const deadline = Date.parse(hold.deadline);
    let nextCheckIn = Date.now();
    for (;;) {
      const current = await this.store.getHold(hold.id);
      if (current && current.status !== 'pending') return current;
      if (Date.now() >= deadline || signal?.aborted) {
        return this.store.decideHold(
          hold.id,
          'timed_out',
          'novarch',
          signal?.aborted ? 'the session stopped waiting' : 'no operator decision before the deadline',
        );
      }
      if (Date.now() >= nextCheckIn) nextCheckIn = await this.#checkIn(hold.id, interval);
      const now = Date.now();
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, Math.min(interval, nextCheckIn - now, deadline - now))),
      );
    }
  }

  /** Checks in on a hold as this process; resolves with when the next check-in is due. */
  async #checkIn(holdId: string, pollIntervalMs: number): Promise<number> {
    try {
      await this.store.checkInHoldWaiter(holdId, thisWaiter());
      return Date.now() + WAITER_CHECK_IN_INTERVAL_MS;
    } catch {
      return Date.now() + Math.min(pollIntervalMs, WAITER_CHECK_IN_INTERVAL_MS);
    }
  }

  /** True when the session was latched, here or by an operator in another process. */
  async isKilled(sessionId: string): Promise<SessionRecord | undefined> {
    const session = await this.store.getSession(sessionId);
    return session?.killedAt ? session : undefined;
  }
}

let waiter: HoldWaiterIdentity | undefined;

/** This process, as it checks in on the holds it waits on. */
function thisWaiter(): HoldWaiterIdentity {
  waiter ??= { pid: process.pid, host: os.hostname() };
  return waiter;
}
