import type { StyledText, Tone } from '../format/styled-text.js';

/** Colours for terminal output: only on a TTY, never when NO_COLOR is set (https://no-color.org). */
export function createStyle(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env) {
  const enabled = stream.isTTY === true && !('NO_COLOR' in env && env.NO_COLOR !== '') && env.TERM !== 'dumb';
  const wrap = (open: number, close: number) => (text: string) =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    enabled,
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    green: wrap(32, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
  };
}

/** The colours of one output stream (identity functions when colour is off). */
export type Style = ReturnType<typeof createStyle>;

/** A style that never colours: for JSON output and tests. */
export const PLAIN_STYLE: Style = createStyle({ isTTY: false });

/** Formatted lines as the terminal shows them: each toned span in its colour, a newline after each line. */
export function paint(lines: StyledText, style: Style): string {
  const colour = (text: string, tone: Tone | undefined) => (tone === undefined ? text : style[tone](text));
  return (
    lines.map((row) => row.map((part) => colour(part.text, part.tone)).join('')).join('\n') +
    (lines.length > 0 ? '\n' : '')
  );
}
