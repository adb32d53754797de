import type { AuditRow } from '../operations/audit-rows.js';
import { holdStatusLabel } from '../operations/describe-hold-state.js';
import { cell, formatTable } from './format-table.js';
import { statusTone } from './status-tone.js';
import { plainLines, type StyledText } from './styled-text.js';

const HEADERS = ['TIME', 'SESSION', 'AGENT', 'ACTION', 'RECORD', 'VERDICT', 'RULES', 'HOLD'];
/** RECORD comes from the agent's tool input: the table says so under it. */
export const AUDIT_AGENT_NOTE = '(RECORD is written by the agent)';
const TONED_COLUMNS = new Set([5, 7]);

/**
 * `novarch audit` for humans: one line per action, oldest first. A pending hold says whether an
 * agent waits on it, as in `holds list`: `pending (waiting|abandoned|expired)`.
 */
export function formatAuditTable(entries: readonly AuditRow[]): StyledText {
  if (entries.length === 0) return plainLines('No actions found.');
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
  const table = formatTable(HEADERS, rows, (column, text) =>
    TONED_COLUMNS.has(column) ? statusTone(text) : undefined,
  );
  return [...table, ...plainLines(AUDIT_AGENT_NOTE)];
}
