import type { ApprovalRequest } from '../backends/contract/index.js';
import type { ChatStyle } from './chat-style.js';
import { neutraliseTerminalText } from './neutralise-terminal-text.js';

const MAX_LINES = 20;

function clip(lines: string[]): string[] {
  return lines.length > MAX_LINES
    ? [...lines.slice(0, MAX_LINES), `… ${lines.length - MAX_LINES} more line(s)`]
    : lines;
}

/** What an approval prompt shows: the tool, why it asks, and its arguments (a diff for edits). */
export function describeApproval(request: ApprovalRequest, style: ChatStyle, columns: number): string {
  const args = request.arguments;
  const name = neutraliseTerminalText(request.toolName);
  const head = `${style.yellow('?')} ${style.bold(name)} wants to run ${style.dim(`(${neutraliseTerminalText(request.reason)})`)}`;
  const text = (value: unknown) =>
    neutraliseTerminalText(typeof value === 'string' ? value : JSON.stringify(value));
  const body: string[] = [];
  if (typeof args.file_path === 'string') body.push(`  file: ${text(args.file_path)}`);
  if (typeof args.command === 'string') body.push(`  $ ${text(args.command)}`);
  if (typeof args.old_string === 'string' && typeof args.new_string === 'string') {
    body.push(
      ...clip([
        ...text(args.old_string)
          .split('\n')
          .map((line) => style.red(`  - ${line}`)),
        ...text(args.new_string)
          .split('\n')
          .map((line) => style.green(`  + ${line}`)),
      ]),
    );
  } else if (typeof args.content === 'string') {
    body.push(
      ...clip(
        text(args.content)
          .split('\n')
          .map((line) => style.green(`  + ${line}`)),
      ),
    );
  }
  const shown = new Set(['file_path', 'command', 'old_string', 'new_string', 'content']);
  const rest = Object.entries(args).filter(([key]) => !shown.has(key));
  for (const [key, value] of rest) {
    const line = `  ${key}: ${text(value)}`;
    body.push(line.length > columns ? `${line.slice(0, columns - 1)}…` : line);
  }
  return [head, ...body].join('\n');
}
