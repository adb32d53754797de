import os from 'node:os';
import { NovarchError } from '../errors.js';
import { actionHistorySource, hasActionHistory } from '../model/action-history.js';
import type { HoldWaiterIdentity, NovarchStore, ReleaseResult } from '../model/novarch-store.js';
import type {
  ActionContext,
  ActionRecord,
  EvidenceRecord,
  HoldApprovalPolicy,
  HoldRecord,
  SessionRecord,
  SessionScope,
  Verdict,
} from '../model/records.js';
import { waiterCheckInIntervalMs } from '../model/waiter-timing.js';
import { citeRuleSets } from '../rules/cite-rule-sets.js';
import { holdApprovalPolicy } from '../rules/hold-approval-policy.js';
import { judgeAction } from '../rules/judge-action.js';
import type { LlmJudge } from '../rules/llm/llm-judge.js';
import type { RuleSet } from '../rules/rule-set.js';
import type { RuleSource } from '../rules/stored-rules.js';
import { errorMessage } from '../support.js';
import type { NovarchTelemetry } from '../telemetry/novarch-telemetry.js';
import { DecisionError } from './decision-error.js';
import type { GovernanceEngine } from './governance-engine.js';

/** `maxHoldS` value that takes the deployment's whole hold window. */
export const ADOPT_DEPLOYMENT_WINDOW = Symbol('novarch.adoptDeploymentWindow');

export interface NovarchEngineOptions {
  store: NovarchStore;
  /**
   * The teams' rules: rule sets loaded once (from files: `loadRulesFiles`), or a `RuleSource`
   * asked at each judgement (`storedRuleSource(store)`: the latest pushed version of the session's
   * team). Every verdict cites the rule sets it was judged by (version and content hash).
   */
  rules: readonly RuleSet[] | RuleSource;
  llmJudge?: LlmJudge;
  /** The longest an operator may take on a hold in this deployment (seconds). */
  holdWindowSeconds: number;
  /**
   * How often a waiting write checks its hold (ms). Default 250. Independently of it, the waiting
   * process checks in on the hold every `waiterCheckInIntervalMs()` (2 s by default), so operators can
   * tell a waiting agent from one that stopped.
   */
  pollIntervalMs?: number;
  /**
   * The judge's time budget per write, in ms (default 30000): an LLM judge that has not answered
   * by then leaves its rules undecided, and the write is held (fail-closed). A `deadline` given to
   * `decide` shortens it.
   */
  judgeTimeoutMs?: number;
  /**
   * OpenTelemetry spans and metrics of each decision, LLM judge call and hold wait (off when
   * absent; `novarch serve` starts it from the `OTEL_*` variables).
   */
  telemetry?: NovarchTelemetry;
  /**
   * What a write gets when `rules` is empty: `kill` (default, as `judgeAction` has it: there is no
   * rules file for the session's team) or `hold`, every write waits for an operator (never passes;
   * the embedded default of `augur.session` runs so until rules are configured).
   */
  withoutRules?: 'kill' | 'hold';
}

/** The rationale of a hold `withoutRules: 'hold'` makes. */
export const NO_RULES_HOLD_RATIONALE =
  'no rules are configured, so every write waits for an operator (list rules files under rules: in novarch.yaml)';

/** The default of `NovarchEngineOptions.judgeTimeoutMs`. */
export const DEFAULT_JUDGE_TIMEOUT_MS = 30_000;

/** A hold with less time than this before its write can no longer run is not offered at all. */
const MIN_HOLD_MS = 1_000;

/** How a hold closes when the call that waited on it was aborted (stored as its rationale). */
export const ABORTED_HOLD_RATIONALE =
  'the agent loop aborted the tool call while it was held; it did not run';

/** How a write is judged (all optional). */
export interface DecideOptions {
  /**
   * The last moment (epoch ms) the write can still be let run, e.g. before the hook that waits
   * for it expires. Judging gets at most the time up to it, and a hold's deadline never passes
   * it: no operator is offered a hold whose write could no longer run.
   */
  deadline?: number;
  /**
   * Let a judge pass run at once (the hook gate does): the verdict and the release are committed
   * in one durable transaction that also checks the session was not killed, and `Decision.release`
   * says whether the write may run. Default false: the pass is recorded durably and the caller
   * checks the session itself before running the write (not atomically).
   */
  release?: boolean;
  /**
   * Approve with edit: the id of the approved hold whose operator edit this write is (its input
   * must be the hold's edited input, on the same session). The edit is judged like any write,
   * except that a hold the approval covers (only rules the held write was held by) lets it run,
   * and a hold by any other rule refuses it (`Decision.editRefusal`); a kill refuses it.
   */
  editOf?: string;
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
  /**
   * For a pass decided with `release: true`: whether the write may run. `released: false` means the
   * session was killed before the pass could take effect: the write must not run. Also
   * `released: false`, whatever the options, when the session was found killed before the write was
   * judged: `verdict` is then the `gate` kill stored on the action (the judge never ran). Callers
   * check `release` before the verdict's kind.
   */
  release?: ReleaseResult;
  /** An operator's edit (`DecideOptions.editOf`) the rules hold for more than its approval covered: it does not run. */
  editRefusal?: string;
}

/**
 * Novarch's engine: sessions, evidence, judged actions and holds, every decision written to the
 * store before it takes effect. Stateless beyond the store, so several processes can share it.
 */
export class NovarchEngine implements GovernanceEngine {
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
    const adopt = maxHoldS === ADOPT_DEPLOYMENT_WINDOW || maxHoldS === undefined;
    if (!adopt && (typeof maxHoldS !== 'number' || !Number.isFinite(maxHoldS) || maxHoldS < 0)) {
      throw new NovarchError(
        `maxHoldS must be a finite number of seconds ≥ 0 or augur.ADOPT_DEPLOYMENT_WINDOW; got ${describeValue(maxHoldS)}`,
      );
    }
    const wait = adopt ? window : Math.min(maxHoldS, window);
    return this.store.createSession(scope, wait);
  }

  /**
   * Judges a write against the session's team rules and evidence. With `release`, a pass is let
   * run at once, atomically with a check of the session's kill; a hold gets its
   * record, with a deadline that never passes `options.deadline`.
   */
  async decide(
    session: SessionRecord,
    proposed: ProposedAction,
    options: DecideOptions = {},
  ): Promise<Decision> {
    const telemetry = this.options.telemetry;
    if (telemetry === undefined) return this.#decide(session, proposed, options);
    const attributes = { ...session, actionType: proposed.actionType };
    const decision = await telemetry.decision(
      attributes,
      () => this.#decide(session, proposed, options),
      (result) => result.verdict.kind,
    );
    if (decision.verdict.kind === 'kill') telemetry.killed('judge');
    return decision;
  }

  async #decide(session: SessionRecord, proposed: ProposedAction, options: DecideOptions): Promise<Decision> {
    // The kill check, the action and the evidence in one store operation; a killed session's
    // write comes back refused (stored so), never judged.
    const proposal = await this.store.proposeAction({ sessionId: session.id, ...proposed });
    const { action } = proposal;
    if (!proposal.open)
      return {
        action,
        verdict: proposal.verdict.verdict,
        release: { released: false, session: proposal.session },
      };
    try {
      return await this.#decideRecorded(session, action, proposal.evidence, options);
    } catch (error) {
      // The action is stored: a refusal of the failed decision belongs on it.
      throw new DecisionError(action.id, error);
    }
  }

  async #decideRecorded(
    session: SessionRecord,
    action: ActionRecord,
    evidence: readonly EvidenceRecord[],
    options: DecideOptions,
  ): Promise<Decision> {
    const budget = this.options.judgeTimeoutMs ?? DEFAULT_JUDGE_TIMEOUT_MS;
    const left = options.deadline === undefined ? budget : Math.min(budget, options.deadline - Date.now());
    const { verdict, policy } = await this.#judge(session, action, evidence, Math.max(0, left));
    if (options.editOf !== undefined) return this.#followEdit(session, action, verdict, options.editOf);
    if (verdict.kind === 'pass' && options.release === true) {
      const release = await this.store.releaseAction({ actionId: action.id, sessionId: session.id, verdict });
      return { action, verdict, release };
    }
    await this.store.recordVerdict({ actionId: action.id, sessionId: session.id, verdict, source: 'judge' });
    if (verdict.kind !== 'hold') return { action, verdict };
    const wanted = Date.now() + session.holdWaitSeconds * 1000;
    // The hold ends before the write could no longer run, with time for an approval to arrive.
    const latest = options.deadline === undefined ? wanted : options.deadline - this.#pollIntervalMs();
    const deadline = new Date(Math.min(wanted, latest));
    const hold = await this.store.createHold(action.id, session.id, deadline, policy);
    if (deadline.getTime() - Date.now() < MIN_HOLD_MS) {
      // No time left for an operator: close it at once rather than offer it.
      const closed = await this.store.decideHold(
        hold.id,
        'timed_out',
        'novarch',
        'no time was left for an operator before the write could no longer run',
      );
      return { action, verdict, hold: closed };
    }
    return { action, verdict, hold };
  }

  /**
   * The verdict on `action`, citing the rule sets it was judged by, and (a hold) who must approve
   * it. Never throws (fail-closed).
   */
  async #judge(
    session: SessionRecord,
    action: ActionRecord,
    evidence: readonly EvidenceRecord[],
    timeoutMs: number,
  ): Promise<{ verdict: Verdict; policy?: HoldApprovalPolicy }> {
    const source = this.options.rules;
    let rules: readonly RuleSet[];
    try {
      rules = 'rulesFor' in source ? await source.rulesFor(session.teamId) : source;
    } catch (error) {
      const reason = errorMessage(error);
      return {
        verdict: {
          kind: 'hold',
          citations: {
            ruleIds: [],
            evidenceIds: [],
            rationale: `the rules of team "${session.teamId}" could not be read (${reason}); an operator decides`,
          },
        },
      };
    }
    if (rules.length === 0 && this.options.withoutRules === 'hold') {
      return {
        verdict: {
          kind: 'hold',
          citations: { ruleIds: [], evidenceIds: [], rationale: NO_RULES_HOLD_RATIONALE },
        },
      };
    }
    const store = this.options.store;
    const verdict = await judgeAction({
      action,
      evidence,
      session,
      rules,
      timeoutMs,
      ...(hasActionHistory(store) ? { history: actionHistorySource(store, action.id) } : {}),
      ...(this.#llmJudge() ? { llmJudge: this.#llmJudge() } : {}),
    });
    const policy = holdApprovalPolicy(verdict, rules, session.teamId);
    return {
      verdict: citeRuleSets(verdict, rules, session.teamId),
      ...(policy === undefined ? {} : { policy }),
    };
  }

  /**
   * The verdict on an operator's edit of held write: recorded on the edit's own action (the held
   * action keeps the agent's input, so the audit has both). A pass runs it; a hold only by rules
   * that held the original is covered by the operator's approval and runs it; any other hold, or a
   * kill, refuses it. Throws when `editOf` is not an approved edit of exactly this input.
   */
  async #followEdit(
    session: SessionRecord,
    action: ActionRecord,
    verdict: Verdict,
    editOf: string,
  ): Promise<Decision> {
    const hold = await this.store.getHold(editOf);
    if (
      hold === undefined ||
      hold.sessionId !== session.id ||
      hold.status !== 'approved' ||
      hold.edit === undefined ||
      JSON.stringify(hold.edit.input) !== JSON.stringify(action.input)
    )
      throw new NovarchError(
        `hold ${editOf} is not an approved edit of this input on session ${session.id}: the edited write is not judged as one`,
      );
    await this.store.recordVerdict({ actionId: action.id, sessionId: session.id, verdict, source: 'judge' });
    if (verdict.kind === 'kill') return { action, verdict };
    if (verdict.kind === 'hold') {
      const entries = await this.store.audit({ sessionId: session.id });
      const original = entries.find((entry) => entry.action.id === hold.actionId)?.verdict;
      const covered = new Set(original?.verdict.kind === 'hold' ? original.verdict.citations.ruleIds : []);
      const uncovered = verdict.citations.ruleIds.filter((ruleId) => !covered.has(ruleId));
      if (uncovered.length > 0 || verdict.citations.ruleIds.length === 0) {
        const by = uncovered.length > 0 ? `rule ${uncovered.join(', ')}` : 'the judge';
        return {
          action,
          verdict,
          editRefusal: `the edited input is held by ${by}, which the approval of hold ${hold.id} did not cover (${verdict.citations.rationale}); it did not run`,
        };
      }
    }
    const release = await this.store.releaseAction({ actionId: action.id, sessionId: session.id });
    return { action, verdict, release };
  }

  /** The LLM judge, each call a span when telemetry is on. */
  #llmJudge(): LlmJudge | undefined {
    const { llmJudge, telemetry } = this.options;
    if (llmJudge === undefined || telemetry === undefined) return llmJudge;
    return {
      judge: (request) =>
        telemetry.judgeCall(
          request.rules.length,
          () => llmJudge.judge(request),
          (verdicts) => verdicts.some((verdict) => verdict.undecided === true),
        ),
    };
  }

  /** Lets an approved write run: atomically with a check that the session was not killed. */
  release(decision: Pick<Decision, 'action'>): Promise<ReleaseResult> {
    return this.store.releaseAction({ actionId: decision.action.id, sessionId: decision.action.sessionId });
  }

  #pollIntervalMs(): number {
    return this.options.pollIntervalMs ?? 250;
  }

  /**
   * Waits for an operator to decide a hold. At the deadline the hold is decided `timed_out`
   * (fail-closed); if an operator decided first, that decision stands.
   *
   * While it waits it checks in on the hold (at once, then every `waiterCheckInIntervalMs()`,
   * however short the poll interval), so `novarch holds` can tell a hold someone waits on from one
   * whose process died. A check-in that fails is retried at the next poll instead of failing the
   * wait: a missing check-in only makes the hold look abandoned, which refuses operator decisions
   * (fail-closed) and never lets a write run.
   */
  async awaitHold(hold: HoldRecord, signal?: AbortSignal): Promise<HoldRecord> {
    const telemetry = this.options.telemetry;
    if (telemetry === undefined) return this.#awaitHold(hold, signal);
    return telemetry.holdWait(
      hold.id,
      () => this.#awaitHold(hold, signal),
      (decided) => decided.status,
    );
  }

  async #awaitHold(hold: HoldRecord, signal?: AbortSignal): Promise<HoldRecord> {
    const interval = this.#pollIntervalMs();
    const deadline = Date.parse(hold.deadline);
    let nextCheckIn = Date.now();
    for (;;) {
      // An abort closes the hold at once: no approval can reach a call that stopped waiting.
      if (signal?.aborted)
        return this.store.decideHold(hold.id, 'timed_out', 'novarch', ABORTED_HOLD_RATIONALE);
      const current = await this.store.getHold(hold.id);
      if (current && current.status !== 'pending') return current;
      if (signal?.aborted) continue;
      if (Date.now() >= deadline) {
        return this.store.decideHold(
          hold.id,
          'timed_out',
          'novarch',
          'no operator decision before the deadline',
        );
      }
      if (Date.now() >= nextCheckIn) nextCheckIn = await this.#checkIn(hold.id, interval);
      const now = Date.now();
      await sleepUnlessAborted(Math.max(0, Math.min(interval, nextCheckIn - now, deadline - now)), signal);
    }
  }

  /** Checks in on a hold as this process; resolves with when the next check-in is due. */
  async #checkIn(holdId: string, pollIntervalMs: number): Promise<number> {
    try {
      await this.store.checkInHoldWaiter(holdId, thisWaiter());
      return Date.now() + waiterCheckInIntervalMs();
    } catch {
      return Date.now() + Math.min(pollIntervalMs, waiterCheckInIntervalMs());
    }
  }

  /** True when the session was latched, here or by an operator in another process. */
  async isKilled(sessionId: string): Promise<SessionRecord | undefined> {
    const session = await this.store.getSession(sessionId);
    return session?.killedAt ? session : undefined;
  }
}

/** Sleeps `ms`, or less when `signal` fires first. */
function sleepUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

function describeValue(value: unknown): string {
  return typeof value === 'string' ? `the string ${JSON.stringify(value)}` : String(value);
}

let waiter: HoldWaiterIdentity | undefined;

/** This process, as it checks in on the holds it waits on. */
function thisWaiter(): HoldWaiterIdentity {
  waiter ??= { pid: process.pid, host: os.hostname() };
  return waiter;
}
