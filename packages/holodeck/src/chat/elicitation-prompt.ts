import type { ElicitationAnswer, ElicitationRequest, ElicitationValue } from '../backends/contract/index.js';
import type { ChatStyle } from './chat-style.js';
import { parseElicitationForm, readFieldAnswer } from './elicitation-form.js';
import { describeElicitation } from './elicitation-view.js';
import type { LineResult } from './line-editor.js';
import { neutraliseTerminalText } from './neutralise-terminal-text.js';

/** What the prompt needs of the chat: read a line (Ctrl+C or Esc ends it), print above the prompt. */
export interface ElicitationPromptIO {
  read(prompt: string): Promise<LineResult>;
  print(text: string): void;
  style: ChatStyle;
}

/** Asks y/n until answered; undefined when the user cancels (Ctrl+C, Esc, end of input). */
async function confirm(io: ElicitationPromptIO, question: string): Promise<boolean | undefined> {
  for (;;) {
    const read = await io.read(question);
    if (read.kind !== 'line') return undefined;
    const answer = read.text.trim().toLowerCase();
    if (answer === 'y' || answer === 'yes') return true;
    if (answer === 'n' || answer === 'no') return false;
    io.print(io.style.yellow('Type y to answer, n to decline; Ctrl+C or Esc cancels.'));
  }
}

/**
 * Asks the user an MCP server's elicitation in the terminal: the server's message and the form's
 * fields (escaped), then accept/decline, then each field in turn, validated against the form's
 * schema (a wrong value says what is wrong and asks again). Ctrl+C or Esc cancels. A form the chat
 * cannot show is declined, saying why.
 */
export async function askElicitation(
  request: ElicitationRequest,
  io: ElicitationPromptIO,
): Promise<ElicitationAnswer> {
  const { style } = io;
  const server = neutraliseTerminalText(request.server);
  const form =
    request.mode === 'url'
      ? { ok: true as const, fields: [] }
      : parseElicitationForm(request.requestedSchema);
  if (!form.ok) {
    io.print(
      `${style.yellow('⊘')} MCP server ${style.bold(server)} asked for a form the chat cannot show: ${neutraliseTerminalText(form.problem)}. Declined; the server is told so.`,
    );
    return { action: 'decline' };
  }
  io.print(describeElicitation(request, form.fields, style));
  const accepted = await confirm(
    io,
    `${style.bold(request.mode === 'url' ? 'Continue?' : 'Answer?')} ${style.dim(
      request.mode === 'url'
        ? '[y] I opened it · [n] decline · Ctrl+C or Esc cancels'
        : '[y] fill in the form · [n] decline · Ctrl+C or Esc cancels',
    )} `,
  );
  if (accepted === undefined) return { action: 'cancel' };
  if (!accepted) return { action: 'decline' };
  const content: Record<string, ElicitationValue> = {};
  for (const field of form.fields) {
    for (;;) {
      const read = await io.read(`${style.bold(neutraliseTerminalText(field.label))}: `);
      if (read.kind !== 'line') return { action: 'cancel' };
      const answer = readFieldAnswer(field, read.text);
      if (answer.kind === 'invalid') {
        io.print(
          `${style.red('✗')} ${neutraliseTerminalText(answer.problem)}; try again (Ctrl+C or Esc cancels)`,
        );
        continue;
      }
      if (answer.kind === 'value') content[field.name] = answer.value;
      break;
    }
  }
  return { action: 'accept', content };
}
