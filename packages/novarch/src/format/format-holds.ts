import { holdStatusLabel } from '../operations/describe-hold-state.js';
import type { HoldSummary } from '../operations/hold-operations.js';
import { cell, formatTable } from './format-table.js';
import { statusTone } from './status-tone.js';
import { plainLines, type StyledText } from './styled-text.js';

const HEADERS = ['HOLD', 'STATUS', 'SESSION', 'ACTION', 'RECORD', 'DEADLINE', 'SUMMARY'];
/** RECORD and SUMMARY come from the agent's tool input: the table says so under it. */
export const HOLDS_AGENT_NOTE = '(RECORD and SUMMARY are written by the agent)';
const STATUS_COLUMN = 1;

/**
 * `novarch holds list` for humans: one line per hold, oldest first. A pending hold's status says
 * whether an agent waits on it: `pending (waiting)`, `pending (abandoned)` or `pending (expired)`.
 */
export function formatHoldsTable(holds: readonly HoldSummary[]): StyledText {
  if (holds.length === 0) return plainLines('No holds found.');
  const rows = holds.map(({ hold, action, state }) => [
    hold.id,
    hold.policy === undefined
      ? holdStatusLabel(hold, state)
      : `${holdStatusLabel(hold, state)} ${hold.approvals?.length ?? 0}/${hold.policy.approvals} approved`,
    hold.sessionId,
    cell(action?.actionType),
    cell(action?.context.recordId),
    hold.deadline,
    cell(action?.context.summary),
  ]);
  const table = formatTable(HEADERS, rows, (column, text) =>
    column === STATUS_COLUMN ? statusTone(text) : undefined,
  );
  return [...table, ...plainLines(HOLDS_AGENT_NOTE)];
}
