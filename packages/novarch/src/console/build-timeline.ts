import type { AuditEntry } from '../model/novarch-store.js';
import type { EvidenceRecord, SessionRecord } from '../model/records.js';
import type { TimelineEntry } from './console-deps.js';

/**
 * A session's timeline, oldest first: its reads (evidence), its writes with their verdicts and
 * hold, and its kill. Entries at the same instant keep reads before writes before the kill.
 */
export function buildTimeline(
  session: SessionRecord,
  evidence: readonly EvidenceRecord[],
  entries: readonly AuditEntry[],
): TimelineEntry[] {
  const timeline: TimelineEntry[] = [
    ...evidence.map((record): TimelineEntry => ({ type: 'read', at: record.startedAt, evidence: record })),
    ...entries.map(
      (entry): TimelineEntry => ({
        type: 'write',
        at: entry.action.createdAt,
        action: entry.action,
        verdicts: entry.verdicts,
        ...(entry.hold === undefined ? {} : { hold: entry.hold }),
      }),
    ),
  ];
  if (session.killedAt !== undefined) timeline.push({ type: 'kill', at: session.killedAt, session });
  const order = { read: 0, write: 1, kill: 2 } as const;
  // A stable sort: records of one kind keep the store's order.
  return timeline.sort((a, b) => a.at.localeCompare(b.at) || order[a.type] - order[b.type]);
}
