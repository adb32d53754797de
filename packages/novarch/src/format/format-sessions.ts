import type { SessionRecord } from '../model/records.js';
import { cell, formatTable } from './format-table.js';
import { paintStatus } from './paint-status.js';
import { PLAIN_STYLE, type Style } from './terminal-style.js';

const HEADERS = ['SESSION', 'TENANT', 'TEAM', 'AGENT', 'STARTED', 'HOLD WAIT', 'KILLED', 'KILL REASON'];
const KILLED_COLUMN = 6;

/** `novarch sessions list` for humans: one line per session, oldest first. */
export function formatSessionsTable(sessions: readonly SessionRecord[], style: Style = PLAIN_STYLE): string {
  if (sessions.length === 0) return 'No sessions found.\n';
  const rows = sessions.map((session) => [
    session.id,
    session.tenantId,
    session.teamId,
    session.agentId,
    session.startedAt,
    `${session.holdWaitSeconds}s`,
    cell(session.killedAt),
    cell(session.killReason),
  ]);
  return formatTable(HEADERS, rows, (column, text, padded) =>
    column === KILLED_COLUMN && text !== '-' ? style.red(padded) : padded,
  );
}

/** The kill, as `novarch sessions kill` confirms it. */
export function formatKilledSession(session: SessionRecord, style: Style = PLAIN_STYLE): string {
  return (
    `Session ${session.id} ${paintStatus(style, 'killed')} at ${session.killedAt ?? '?'}: ` +
    `${session.killReason ?? ''}\nThe gate refuses its next tool call, reads included.\n`
  );
}
