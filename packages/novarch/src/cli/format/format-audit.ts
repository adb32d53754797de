import type { AuditEntry } from '../../model/novarch-store.js';
import { PLAIN_STYLE, type Style } from '../terminal-style.js';
import { cell, formatTable } from './format-table.js';
import { paintStatus } from './paint-status.js';

const HEADERS = ['TIME', 'SESSION', 'AGENT', 'ACTION', 'RECORD', 'VERDICT', 'RULES', 'HOLD'];
const PAINTED_COLUMNS = new Set([5, 7]);

/** `novarch audit` for humans: one line per action, oldest first. */
export function formatAuditTable(entries: readonly AuditEntry[], style: Style = PLAIN_STYLE): string {
  if (entries.length === 0) return 'No actions found.\n';
  const rows = entries.map(({ action, session, verdict, hold }) => [
    action.createdAt,
    session.id,
    session.agentId,
    action.actionType,
    cell(action.context.recordId),
    cell(verdict?.verdict.kind),
    cell(verdict?.verdict.citations.ruleIds.join(',')),
    cell(hold?.status),
  ]);
  return formatTable(HEADERS, rows, (column, text, padded) =>
    PAINTED_COLUMNS.has(column) ? padded.replace(text, paintStatus(style, text)) : padded,
  );
}
