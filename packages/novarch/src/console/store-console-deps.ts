import type { NovarchStore } from '../model/novarch-store.js';
import type { HoldRecord, SessionRecord } from '../model/records.js';
import { buildTimeline } from './build-timeline.js';
import type { ConsoleDeps, ConsoleOperator, WebhookDeliveryView } from './console-deps.js';
import { listStoreSessions, timelineRecords } from './list-store-sessions.js';
import { grantedTenants } from './operator-scope.js';
import { searchStoreAudit } from './search-store-audit.js';
import { decideVisibleHold, killVisibleSession } from './store-console-decisions.js';
import {
  listStoreTriage,
  readSessionRecords,
  triageHold,
  visibleStoreHold,
  visibleStoreSession,
} from './store-triage.js';

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

/**
 * The console's deps over a `NovarchStore` (the embedded SQLite store or the server's), scoped to
 * each operator's grants. Decisions and kills are stored under the operator's name from the
 * verified token, never from the request.
 */
export function storeConsoleDeps(options: StoreConsoleDepsOptions): ConsoleDeps {
  const { store } = options;
  const now = options.now ?? (() => new Date());
  const recentCalls = options.recentCalls ?? 8;

  const visibleSession = (operator: ConsoleOperator, sessionId: string) =>
    visibleStoreSession(store, operator, sessionId);
  const visibleHold = (operator: ConsoleOperator, holdId: string) =>
    visibleStoreHold(store, operator, holdId);

  const deps: ConsoleDeps = {
    verifyOperatorToken: options.verifyOperatorToken,
    ...(options.findOperator === undefined ? {} : { findOperator: options.findOperator }),
    ...(options.subscribeChanges === undefined ? {} : { subscribeChanges: options.subscribeChanges }),

    listTriage: (operator) => listStoreTriage(store, operator, { now, recentCalls }),

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

    listSessions: (operator, query = {}) =>
      listStoreSessions(store, operator, query, { now, size: options.sessionLimit ?? 100 }),

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
  if (listWebhookDeliveries !== undefined)
    deps.listWebhookFailures = (operator) => failedWebhookDeliveries(store, operator, listWebhookDeliveries);
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

/** The failed deliveries of the tenants the operator has a grant in (every tenant with a session, for `*`). */
async function failedWebhookDeliveries(
  store: NovarchStore,
  operator: ConsoleOperator,
  listWebhookDeliveries: NonNullable<StoreConsoleDepsOptions['listWebhookDeliveries']>,
): Promise<WebhookDeliveryView[]> {
  const failures: WebhookDeliveryView[] = [];
  const tenants = grantedTenants(operator) ?? [
    ...new Set((await store.listSessions()).map((session) => session.tenantId)),
  ];
  for (const tenantId of tenants) {
    failures.push(...(await listWebhookDeliveries(tenantId)).filter((item) => item.status === 'failed'));
  }
  return failures;
}
