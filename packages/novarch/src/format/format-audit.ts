import type { AuditRow } from '../operations/audit-rows.js';
import { holdStatusLabel } from '../operations/describe-hold-state.js';
import { cell, formatTable } from './format-table.js';
import { paintStatus } from './paint-status.js';
import { PLAIN_STYLE, type Style } from './terminal-style.js';

const HEADERS = ['TIME', 'SESSION', 'AGENT', 'ACTION', 'RECORD', 'VERDICT', 'RULES', 'HOLD'];
/** RECORD comes from the agent's tool input: the table says so under it. */
export const AUDIT_AGENT_NOTE = '(RECORD is written by the agent)\n';
const PAINTED_COLUMNS = new Set([5, 7]);

/**
 * `novarch audit` for humans: one line per action, oldest first. A pending hold says whether an
 * agent waits on it, as in `holds list`: `pending (waiting|abandoned|expired)`.
 */
export function formatAuditTable(entries: readonly AuditRow[], style: Style = PLAIN_STYLE): string {
  if (entries.length === 0) return 'No actions found.\n';
  const rows = entries.map(({ action, session, verdict, hold, holdState }) => [
    action.createdAt,
    session.id,
    session.agentId,
    action.actionType,
    cell(action.context.recordId),
    cell(verdict?.verdict.kind),
    cell(verdict?.verdict.citations.ruleIds.join(',')),
    cell(hold && holdStatusLabel(hold, holdState)),
  ]);
  const table = formatTable(HEADERS, rows, (column, text, padded) =>
    PAINTED_COLUMNS.has(column) ? padded.replace(text, paintStatus(style, text)) : padded,
  );
  return `${table}${AUDIT_AGENT_NOTE}`;
}
