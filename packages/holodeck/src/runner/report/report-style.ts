import type { CaseStatus } from './case-status.js';

/**
 * ANSI colours for terminal renderers, on only when the caller says so (it decides from
 * stream.isTTY and NO_COLOR; see terminalCapabilities). Off, every function returns its text.
 */
export function createReportStyle(color: boolean) {
  const wrap = (open: number, close: number) => (text: string) =>
    color ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  const style = {
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
  };
  const statusColour: Record<CaseStatus, (text: string) => string> = {
    pass: style.green,
    fail: style.red,
    error: style.yellow,
    stopped: style.yellow,
  };
  return { ...style, status: (status: CaseStatus, text: string) => statusColour[status](text) };
}

/** The colour functions of one renderer. */
export type ReportStyle = ReturnType<typeof createReportStyle>;

/** Decides how to draw progress on a stream: live redraws on a TTY, colours unless NO_COLOR is set. */
export function terminalCapabilities(
  stream: { isTTY?: boolean },
  env: NodeJS.ProcessEnv = process.env,
): { interactive: boolean; color: boolean } {
  const interactive = stream.isTTY === true && env.TERM !== 'dumb';
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  return { interactive, color: interactive && !noColor };
}
