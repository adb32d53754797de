import type { ApprovalRequest } from '../backends/contract/index.js';
import type { ChatStyle } from './chat-style.js';
import { neutraliseTerminalText } from './neutralise-terminal-text.js';
import { shownToolName } from './shown-tool-name.js';

const MAX_LINES = 20;

function clip(lines: string[]): string[] {
  return lines.length > MAX_LINES
    ? [...lines.slice(0, MAX_LINES), `… ${lines.length - MAX_LINES} more line(s)`]
    : lines;
}

/** A line of a line diff (novarch's `diffLines`). */
export interface ShownDiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** A diff with 2 lines of context around each change; longer unchanged runs are folded. */
function describeDiff(
  diff: readonly ShownDiffLine[],
  style: ChatStyle,
  text: (value: string) => string,
): string[] {
  const near = (index: number) =>
    diff.slice(Math.max(0, index - 2), index + 3).some((line) => line.kind !== 'same');
  const out: string[] = [];
  let folded = 0;
  diff.forEach((line, index) => {
    if (line.kind === 'same' && !near(index)) {
      folded += 1;
      return;
    }
    if (folded) out.push(style.dim(`  … ${folded} unchanged line(s)`));
    folded = 0;
    const shown = text(line.text);
    out.push(
      line.kind === 'removed'
        ? style.red(`  - ${shown}`)
        : line.kind === 'added'
          ? style.green(`  + ${shown}`)
          : style.dim(`    ${shown}`),
    );
  });
  if (folded) out.push(style.dim(`  … ${folded} unchanged line(s)`));
  if (!diff.some((line) => line.kind !== 'same'))
    out.push(style.dim('  (the same content as the file has now)'));
  return out;
}

/**
 * What an approval prompt shows: the tool, why it asks, and its arguments (a diff for edits; for
 * a write over an existing file, `existing` is the diff from the file as it is now).
 */
export function describeApproval(
  request: ApprovalRequest,
  style: ChatStyle,
  columns: number,
  existing?: readonly ShownDiffLine[],
): string {
  const args = request.arguments;
  const name = shownToolName(request.toolName);
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
  } else if (typeof args.content === 'string' && existing) {
    body.push(style.dim('  replaces the existing file:'), ...clip(describeDiff(existing, style, text)));
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
