import { holdStatusLabel } from '../operations/describe-hold-state.js';
import type { HoldSummary } from '../operations/hold-operations.js';
import { cell, formatTable } from './format-table.js';
import { paintStatus } from './paint-status.js';
import { PLAIN_STYLE, type Style } from './terminal-style.js';

const HEADERS = ['HOLD', 'STATUS', 'SESSION', 'ACTION', 'RECORD', 'DEADLINE', 'SUMMARY'];
/** RECORD and SUMMARY come from the agent's tool input: the table says so under it. */
export const HOLDS_AGENT_NOTE = '(RECORD and SUMMARY are written by the agent)\n';
const STATUS_COLUMN = 1;

/**
 * `novarch holds list` for humans: one line per hold, oldest first. A pending hold's status says
 * whether an agent waits on it: `pending (waiting)`, `pending (abandoned)` or `pending (expired)`.
 */
export function formatHoldsTable(holds: readonly HoldSummary[], style: Style = PLAIN_STYLE): string {
  if (holds.length === 0) return 'No holds found.\n';
  const rows = holds.map(({ hold, action, state }) => [
    hold.id,
    holdStatusLabel(hold, state),
    hold.sessionId,
    cell(action?.actionType),
    cell(action?.context.recordId),
    hold.deadline,
    cell(action?.context.summary),
  ]);
  const table = formatTable(HEADERS, rows, (column, text, padded) =>
    column === STATUS_COLUMN ? padded.replace(text, paintStatus(style, text)) : padded,
  );
  return `${table}${HOLDS_AGENT_NOTE}`;
}
