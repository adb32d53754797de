/**
 * What the formatters return: lines of spans, each span with an optional tone. The CLI colours the
 * tones on a terminal (cli/terminal-style.ts); the server and `--json` print the plain text.
 */
export type Tone = 'red' | 'yellow' | 'green' | 'dim' | 'bold';

/** A run of text of one tone (none: printed as is). Never holds a newline. */
export interface Span {
  readonly text: string;
  readonly tone?: Tone;
}

/** One line of output. */
export type StyledLine = readonly Span[];

/** Lines of output; printed with a newline after each. */
export type StyledText = readonly StyledLine[];

/** A span of `text`, in `tone` if given. */
export function span(text: string, tone?: Tone): Span {
  return tone === undefined ? { text } : { text, tone };
}

/** One line from plain strings and spans. */
export function line(...parts: readonly (string | Span)[]): StyledLine {
  return parts.map((part) => (typeof part === 'string' ? { text: part } : part));
}

/** Lines of untoned text: `text` split at its newlines. */
export function plainLines(text: string): StyledText {
  return text.split('\n').map((row) => [{ text: row }]);
}

/** The text without tones, a newline after each line: what the server returns and tests compare. */
export function plainText(lines: StyledText): string {
  return (
    lines.map((row) => row.map((part) => part.text).join('')).join('\n') + (lines.length > 0 ? '\n' : '')
  );
}
