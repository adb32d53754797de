import type { SessionRecord } from '../model/records.js';
import { cell, formatTable } from './format-table.js';
import { statusTone } from './status-tone.js';
import { line, plainLines, type StyledText, span } from './styled-text.js';

const HEADERS = ['SESSION', 'TENANT', 'TEAM', 'AGENT', 'STARTED', 'HOLD WAIT', 'KILLED', 'KILL REASON'];
const KILLED_COLUMN = 6;

/** `novarch sessions list` for humans: one line per session, oldest first. */
export function formatSessionsTable(sessions: readonly SessionRecord[]): StyledText {
  if (sessions.length === 0) return plainLines('No sessions found.');
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
  return formatTable(HEADERS, rows, (column, text) =>
    column === KILLED_COLUMN && text !== '-' ? 'red' : undefined,
  );
}

/** The kill, as `novarch sessions kill` confirms it. */
export function formatKilledSession(session: SessionRecord): StyledText {
  return [
    line(
      `Session ${session.id} `,
      span('killed', statusTone('killed')),
      ` at ${session.killedAt ?? '?'}: ${session.killReason ?? ''}`,
    ),
    line('The gate refuses its next tool call, reads included.'),
  ];
}
