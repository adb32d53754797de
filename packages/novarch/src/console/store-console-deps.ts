import { pendingHoldState } from '../model/hold-state.js';
import type { NovarchStore, WithinScope } from '../model/novarch-store.js';
import type { HoldRecord, SessionRecord } from '../model/records.js';
import { whyMayNotDecide } from '../operations/check-decider.js';
import { awaitingApprovals } from '../operations/decide-hold-as-operator.js';
import { buildTimeline } from './build-timeline.js';
import type {
  ConsoleDecision,
  ConsoleDeps,
  ConsoleOperator,
  DecisionOutcome,
  KillOutcome,
  SessionSummary,
  TriageHold,
  WebhookDeliveryView,
} from './console-deps.js';
import { ConsoleRequestError } from './console-errors.js';
import { describeHoldDecision } from './describe-hold-decision.js';
import { grantedTenants, operatorCovers, operatorWithin } from './operator-scope.js';
import { searchStoreAudit } from './search-store-audit.js';
import { readSessionRecords, type SessionRecords, triageHold } from './store-triage.js';

/** How `storeConsoleDeps` reaches the identities and the webhook deliveries of the server. */
export interface StoreConsoleDepsOptions {
  store: NovarchStore;
  verifyOperatorToken: ConsoleDeps['verifyOperatorToken'];
  findOperator?: ConsoleDeps['findOperator'];
  /** Passed through: the rules calibration page (`ConsoleDeps.calibrateRules`). */
  calibrateRules?: ConsoleDeps['calibrateRules'];
  /** The deliveries of one tenant (the store's `listWebhookDeliveries`); failures are shown. */
  listWebhookDeliveries?: (tenantId: string) => Promise<readonly WebhookDeliveryView[]>;
  /** Passed through: the server's event bus wakes live pages (`ConsoleDeps.subscribeChanges`). */
  subscribeChanges?: ConsoleDeps['subscribeChanges'];
  /**
   * Told of every decision and kill the console stores (e.g. to emit them on the server's event
   * bus, so agents waiting through the server wake at once). Errors thrown here are ignored: the
   * decision is already stored.
   */
  onHoldDecided?: (session: SessionRecord, hold: HoldRecord) => void;
  onSessionKilled?: (session: SessionRecord) => void;
  /** The clock against which hold deadlines and waiters are judged (default: the system's). */
  now?: () => Date;
  /** How many of a session's latest calls a hold shows (default 8). */
  recentCalls?: number;
  /** How many sessions a page of the sessions page lists, most recent first (default 100). */
  sessionLimit?: number;
}

/** A session with a call this recent counts as live. */
export const LIVE_WINDOW_MS = 5 * 60_000;

/**
 * The console's deps over a `NovarchStore` (the embedded SQLite store or the server's), scoped to
 * each operator's grants. Decisions and kills are stored under the operator's name from the
 * verified token, never from the request.
 */
export function storeConsoleDeps(options: StoreConsoleDepsOptions): ConsoleDeps {
  const { store } = options;
  const now = options.now ?? (() => new Date());
  const recentCalls = options.recentCalls ?? 8;

  /** The session, when the operator may see it. */
  async function visibleSession(
    operator: ConsoleOperator,
    sessionId: string,
  ): Promise<SessionRecord | undefined> {
    const session = await store.getSession(sessionId);
    return session !== undefined && operatorCovers(operator, session) ? session : undefined;
  }

  /** `filter`, reading only the operator's tenants and teams. */
  function within<F extends object>(operator: ConsoleOperator, filter: F): F & { within?: WithinScope[] } {
    const scopes = operatorWithin(operator);
    return scopes === undefined ? filter : { ...filter, within: scopes };
  }

  async function visibleHold(
    operator: ConsoleOperator,
    holdId: string,
  ): Promise<{ hold: HoldRecord; session: SessionRecord } | undefined> {
    const hold = await store.getHold(holdId);
    if (hold === undefined) return undefined;
    const session = await visibleSession(operator, hold.sessionId);
    return session === undefined ? undefined : { hold, session };
  }

  const deps: ConsoleDeps = {
    verifyOperatorToken: options.verifyOperatorToken,
    ...(options.findOperator === undefined ? {} : { findOperator: options.findOperator }),
    ...(options.subscribeChanges === undefined ? {} : { subscribeChanges: options.subscribeChanges }),

    async listTriage(operator) {
      const at = now();
      const pending = await store.listHolds(within(operator, { status: 'pending' as const }));
      const records = new Map<string, SessionRecords | undefined>();
      const holds: TriageHold[] = [];
      let unattended = 0;
      for (const hold of pending) {
        if (!records.has(hold.sessionId)) {
          const session = await visibleSession(operator, hold.sessionId);
          records.set(hold.sessionId, session && (await readSessionRecords(store, session)));
        }
        const sessionRecords = records.get(hold.sessionId);
        if (sessionRecords === undefined) continue;
        if (pendingHoldState(hold, at) !== 'waiting') unattended += 1;
        else holds.push(triageHold(hold, sessionRecords, at, recentCalls));
      }
      return { holds, unattended };
    },

    async getHold(operator, holdId) {
      const visible = await visibleHold(operator, holdId);
      if (visible === undefined) return undefined;
      return triageHold(visible.hold, await readSessionRecords(store, visible.session), now(), recentCalls);
    },

    async decideHold(operator, decision) {
      const visible = await visibleHold(operator, decision.holdId);
      if (visible === undefined) return undefined;
      const outcome = await decideVisibleHold(store, operator, visible.hold, decision, now());
      if (outcome.outcome === 'decided') report(() => options.onHoldDecided?.(visible.session, outcome.hold));
      return outcome;
    },

    async listSessions(operator, query = {}) {
      const needle = query.search?.trim().toLowerCase() ?? '';
      const matching = (await store.listSessions(within(operator, {}))).filter(
        (session) =>
          operatorCovers(operator, session) &&
          (needle === '' ||
            [session.id, session.tenantId, session.teamId, session.agentId].some((value) =>
              value.toLowerCase().includes(needle),
            )),
      );
      // Most recent first, in the store's order (start times may tie within a millisecond).
      matching.reverse();
      const size = options.sessionLimit ?? 100;
      const pages = Math.max(1, Math.ceil(matching.length / size));
      const page = Math.min(Math.max(1, query.page ?? 1), pages);
      const sessions = matching.slice((page - 1) * size, page * size);
      const pending = await store.listHolds(within(operator, { status: 'pending' as const }));
      const at = now();
      const summaries: SessionSummary[] = [];
      for (const session of sessions) {
        const timeline = buildTimeline(session, ...(await timelineRecords(store, session)));
        const waiting = pending.filter(
          (hold) => hold.sessionId === session.id && pendingHoldState(hold, at) === 'waiting',
        ).length;
        const calls = timeline.filter((entry) => entry.type !== 'kill');
        const lastActivityAt = calls.at(-1)?.at ?? session.startedAt;
        const recent = at.getTime() - Date.parse(lastActivityAt) <= LIVE_WINDOW_MS;
        const unattended = pending.some(
          (hold) => hold.sessionId === session.id && pendingHoldState(hold, at) !== 'waiting',
        );
        const status =
          session.killedAt !== undefined
            ? 'killed'
            : waiting > 0
              ? 'live'
              : unattended
                ? 'stopped'
                : recent
                  ? 'live'
                  : 'idle';
        summaries.push({ session, status, lastActivityAt, calls: calls.length, pendingHolds: waiting });
      }
      return { sessions: summaries, total: matching.length, page, pages };
    },

    async getSessionTimeline(operator, sessionId) {
      const session = await visibleSession(operator, sessionId);
      if (session === undefined) return undefined;
      return { session, entries: buildTimeline(session, ...(await timelineRecords(store, session))) };
    },

    async killSession(operator, kill) {
      const session = await visibleSession(operator, kill.sessionId);
      if (session === undefined) return undefined;
      const outcome = await killVisibleSession(store, operator, session, kill.reason);
      if (outcome.outcome === 'killed') report(() => options.onSessionKilled?.(outcome.session));
      return outcome;
    },

    searchAudit: (operator, search) => searchStoreAudit(store, operator, search),
    ...(options.calibrateRules === undefined ? {} : { calibrateRules: options.calibrateRules }),
  };
  const { listWebhookDeliveries } = options;
  if (listWebhookDeliveries !== undefined) {
    deps.listWebhookFailures = async (operator) => {
      const failures: WebhookDeliveryView[] = [];
      const tenants = grantedTenants(operator) ?? [
        ...new Set((await store.listSessions()).map((session) => session.tenantId)),
      ];
      for (const tenantId of tenants) {
        failures.push(...(await listWebhookDeliveries(tenantId)).filter((item) => item.status === 'failed'));
      }
      return failures;
    };
  }
  return deps;
}

/** Runs a notification; it cannot undo a stored decision, so what it throws is dropped. */
function report(notify: () => void): void {
  try {
    notify();
  } catch {
    // reporting only
  }
}

async function timelineRecords(store: NovarchStore, session: SessionRecord) {
  const { evidence, entries } = await readSessionRecords(store, session);
  return [evidence, entries] as const;
}

async function decideVisibleHold(
  store: NovarchStore,
  operator: ConsoleOperator,
  before: HoldRecord,
  decision: ConsoleDecision,
  at: Date,
): Promise<DecisionOutcome> {
  const rationale = decision.rationale?.trim() || undefined;
  if (decision.status === 'denied' && rationale === undefined) {
    throw new ConsoleRequestError(
      400,
      'A deny needs a rationale: the agent is told why its action was refused.',
    );
  }
  if (decision.status === 'skipped' && rationale === undefined) {
    throw new ConsoleRequestError(
      400,
      'Refusing and stopping the session needs a rationale: it is stored with the decision.',
    );
  }
  if (before.status !== 'pending') {
    return refused(
      before,
      `Hold ${before.id} was already ${describeHoldDecision(before)}. Nothing was changed.`,
    );
  }
  const state = pendingHoldState(before, at);
  if (state === 'abandoned' || state === 'expired') {
    const why =
      state === 'abandoned'
        ? 'no agent process has checked in on it for over 10 s'
        : `its deadline (${before.deadline}) has passed`;
    return refused(
      before,
      `Hold ${before.id} is ${state}: ${why}. No agent waits for this decision: the write will not run. Nothing was changed.`,
    );
  }
  const barred = whyMayNotDecide(
    before,
    { name: operator.name, via: 'token', groups: operator.groups, notForKeys: operator.notForKeys },
    await store.getSessionBinding(before.sessionId),
    decision.status,
  );
  if (barred !== undefined) return refused(before, barred);
  const after = await store.decideHold(
    before.id,
    decision.status,
    operator.name,
    rationale,
    decision.input === undefined ? undefined : { input: decision.input },
  );
  if (after.status === decision.status && after.decidedBy === operator.name)
    return { outcome: 'decided', hold: after };
  // An approval recorded on a hold that needs more: stored, and the hold still waits.
  if (awaitingApprovals(after, operator.name, decision.status) !== undefined)
    return { outcome: 'decided', hold: after };
  // Another operator (or the deadline) got there first: the first decision stands.
  return refused(after, `Hold ${after.id} was already ${describeHoldDecision(after)}. Nothing was changed.`);
}

function refused(hold: HoldRecord, message: string): DecisionOutcome {
  return { outcome: 'refused', hold, message };
}

async function killVisibleSession(
  store: NovarchStore,
  operator: ConsoleOperator,
  session: SessionRecord,
  reasonText: string,
): Promise<KillOutcome> {
  const reason = reasonText.trim();
  if (reason === '')
    throw new ConsoleRequestError(400, 'A kill needs a reason: it is stored and shown to the agent.');
  if (session.killedAt !== undefined) {
    return {
      outcome: 'refused',
      session,
      message: `Session ${session.id} was already killed at ${session.killedAt}: ${session.killReason ?? 'no reason stored'}. Nothing was changed.`,
    };
  }
  const stored = `operator ${operator.name}: ${reason}`;
  await store.killSession(session.id, stored, { source: 'operator' });
  const after = (await store.getSession(session.id)) ?? session;
  if (after.killReason === stored) return { outcome: 'killed', session: after };
  return {
    outcome: 'refused',
    session: after,
    message: `Session ${after.id} was killed by someone else first at ${after.killedAt ?? '?'}: ${after.killReason ?? ''}. Nothing was changed.`,
  };
}
