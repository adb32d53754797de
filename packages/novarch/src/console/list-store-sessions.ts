import { pendingHoldState } from '../model/hold-state.js';
import type { NovarchStore } from '../model/novarch-store.js';
import type { HoldRecord, SessionRecord } from '../model/records.js';
import { buildTimeline } from './build-timeline.js';
import type { ConsoleOperator, SessionListQuery, SessionPage, SessionSummary } from './console-deps.js';
import { operatorCovers, withinOperator } from './operator-scope.js';
import { readSessionRecords } from './store-triage.js';

/** A session with a call this recent counts as live. */
export const LIVE_WINDOW_MS = 5 * 60_000;

/**
 * One page of `size` sessions the operator may see, most recent first, matching `query.search`
 * (in an id, tenant, team or agent), each with its status now.
 */
export async function listStoreSessions(
  store: NovarchStore,
  operator: ConsoleOperator,
  query: SessionListQuery,
  { now, size }: { now: () => Date; size: number },
): Promise<SessionPage> {
  const needle = query.search?.trim().toLowerCase() ?? '';
  const matching = (await store.listSessions(withinOperator(operator, {}))).filter(
    (session) =>
      operatorCovers(operator, session) &&
      (needle === '' ||
        [session.id, session.tenantId, session.teamId, session.agentId].some((value) =>
          value.toLowerCase().includes(needle),
        )),
  );
  // Most recent first, in the store's order (start times may tie within a millisecond).
  matching.reverse();
  const pages = Math.max(1, Math.ceil(matching.length / size));
  const page = Math.min(Math.max(1, query.page ?? 1), pages);
  const sessions = matching.slice((page - 1) * size, page * size);
  const pending = await store.listHolds(withinOperator(operator, { status: 'pending' as const }));
  const at = now();
  const summaries: SessionSummary[] = [];
  for (const session of sessions) summaries.push(await summarizeSession(store, session, pending, at));
  return { sessions: summaries, total: matching.length, page, pages };
}

async function summarizeSession(
  store: NovarchStore,
  session: SessionRecord,
  pending: readonly HoldRecord[],
  at: Date,
): Promise<SessionSummary> {
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
  return { session, status, lastActivityAt, calls: calls.length, pendingHolds: waiting };
}

/** A session's evidence and audit entries, as `buildTimeline` takes them after the session. */
export async function timelineRecords(store: NovarchStore, session: SessionRecord) {
  const { evidence, entries } = await readSessionRecords(store, session);
  return [evidence, entries] as const;
}
