import type { AuditEntry } from '../model/novarch-store.js';

/** The columns of the CSV export, in order. */
export const AUDIT_CSV_COLUMNS = [
  'time',
  'tenant',
  'team',
  'agent',
  'session',
  'action_id',
  'action_type',
  'tool',
  'record_id',
  'summary',
  'agent_rationale',
  'verdict',
  'verdict_source',
  'rules',
  'evidence',
  'verdict_rationale',
  'released_at',
  'hold_status',
  'decided_by',
  'decided_at',
  'hold_rationale',
] as const;

/**
 * One CSV cell, quoted. A cell a spreadsheet would take for a formula (starting with `=`, `+`,
 * `-`, `@`, a tab or a carriage return) gets a leading `'`, so an agent's text cannot run as a
 * formula when an operator opens the export (CSV injection).
 */
export function csvCell(value: string | number | undefined): string {
  const text = value === undefined ? '' : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** The audit entries as CSV (RFC 4180, CRLF line ends, a header row). */
export function auditToCsv(entries: readonly AuditEntry[]): string {
  return `${[csvHeader(), ...entries.map(csvRow)].join('\r\n')}\r\n`;
}

/**
 * The export as a stream of chunks of at most `rowsPerChunk` entries, so a large export is sent
 * as it is written rather than built as one string (every matching entry, never a cut).
 */
export function streamAuditExport(
  entries: readonly AuditEntry[],
  format: 'csv' | 'json',
  rowsPerChunk = 200,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(format === 'csv' ? `${csvHeader()}\r\n` : '['));
      }
      if (next >= entries.length) {
        if (format === 'json') controller.enqueue(encoder.encode(']'));
        controller.close();
        return;
      }
      const chunk = entries.slice(next, next + rowsPerChunk);
      const text =
        format === 'csv'
          ? chunk.map((entry) => `${csvRow(entry)}\r\n`).join('')
          : chunk.map((entry, index) => `${next + index === 0 ? '' : ','}${JSON.stringify(entry)}`).join('');
      next += chunk.length;
      controller.enqueue(encoder.encode(text));
    },
  });
}

function csvHeader(): string {
  return AUDIT_CSV_COLUMNS.map(csvCell).join(',');
}

function csvRow(entry: AuditEntry): string {
  {
    const { action, session, verdict, hold } = entry;
    const citations = verdict?.verdict.citations;
    const cells: Record<(typeof AUDIT_CSV_COLUMNS)[number], string | undefined> = {
      time: action.createdAt,
      tenant: session.tenantId,
      team: session.teamId,
      agent: session.agentId,
      session: session.id,
      action_id: action.id,
      action_type: action.actionType,
      tool: action.toolName,
      record_id: action.context.recordId,
      summary: action.context.summary,
      agent_rationale: action.reasoning,
      verdict: verdict?.verdict.kind,
      verdict_source: verdict?.source,
      rules: citations?.ruleIds.join(' '),
      evidence: citations?.evidenceIds.join(' '),
      verdict_rationale: citations?.rationale,
      released_at: action.releasedAt,
      hold_status: hold?.status,
      decided_by: hold?.decidedBy,
      decided_at: hold?.decidedAt,
      hold_rationale: hold?.rationale,
    };
    return AUDIT_CSV_COLUMNS.map((column) => csvCell(cells[column])).join(',');
  }
}
