import type { ElicitationRecord, ElicitationRequest } from '../backends/contract/index.js';
import type { ChatStyle } from './chat-style.js';
import { type FormField, fieldHint } from './elicitation-form.js';
import { neutraliseTerminalText } from './neutralise-terminal-text.js';

/** What a declined-by-policy elicitation tells the user: where it can be answered. */
export const ELICITATION_NOBODY_TO_ASK =
  'nobody can answer it in this run; `holodeck chat` on a terminal asks you';

/** The question of an elicitation: the server, its message, the form's fields or the URL. */
export function describeElicitation(
  request: ElicitationRequest,
  fields: readonly FormField[],
  style: ChatStyle,
): string {
  const server = neutraliseTerminalText(request.server);
  const lines = [
    `${style.yellow('?')} MCP server ${style.bold(server)} asks: ${neutraliseTerminalText(request.message)}`,
  ];
  if (request.mode === 'url')
    lines.push(`  open: ${neutraliseTerminalText(request.url ?? '(no URL given)')}`);
  for (const field of fields) {
    const about = field.description ? ` ${style.dim(`— ${neutraliseTerminalText(field.description)}`)}` : '';
    lines.push(`  ${neutraliseTerminalText(field.label)} ${style.dim(`(${fieldHint(field)})`)}${about}`);
    if (field.kind === 'choice' || field.kind === 'choices')
      field.options.forEach((option, index) => {
        lines.push(style.dim(`     ${index + 1}. ${neutraliseTerminalText(option.title)}`));
      });
  }
  return lines.join('\n');
}

/** One line for an answered elicitation: the server, the action, the fields sent (never their values). */
export function describeElicitationOutcome(record: ElicitationRecord): string {
  const server = `MCP server "${neutraliseTerminalText(record.server)}"`;
  const asked = `${server} asked: ${neutraliseTerminalText(record.message)}`;
  if (record.answeredBy === 'policy') return `${asked} — declined: ${ELICITATION_NOBODY_TO_ASK}`;
  if (record.action === 'accept')
    return `${server}: answered${record.fields.length ? ` (${record.fields.map(neutraliseTerminalText).join(', ')})` : ''}`;
  return `${server}: ${record.action === 'decline' ? 'declined' : 'cancelled'}`;
}
