// Colour codes and the chat's own OSC 8 hyperlinks take no columns.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const SGR = /\u001b\[[0-9;]*m|\u001b\]8;;[^\u001b\u0007]*(?:\u001b\\|\u0007)/g;

/** Columns a string takes on the terminal, ignoring colour codes (wide characters count 2). */
export function terminalTextWidth(text: string): number {
  let width = 0;
  for (const character of text.replace(SGR, '')) {
    const code = character.codePointAt(0) ?? 0;
    if (code < 0x20) continue;
    if (code >= 0x300 && code <= 0x36f) continue; // combining marks
    width += isWide(code) ? 2 : 1;
  }
  return width;
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/** Word-wraps one line (colour codes allowed) to `width` columns; words longer than a line are cut. */
export function wrapLine(line: string, width: number, indent = ''): string[] {
  if (width < 10 || terminalTextWidth(line) <= width) return [line];
  const words = line.split(/( +)/);
  const lines: string[] = [];
  let current = '';
  for (const word of words) {
    if (!word) continue;
    const candidate = current + word;
    if (terminalTextWidth(candidate) <= width) {
      current = candidate;
      continue;
    }
    if (/^ +$/.test(word)) {
      lines.push(current);
      current = indent;
      continue;
    }
    if (current.trim()) lines.push(current);
    current = indent;
    let rest = word;
    while (terminalTextWidth(current + rest) > width) {
      const room = Math.max(1, width - terminalTextWidth(current));
      lines.push(current + rest.slice(0, room));
      rest = rest.slice(room);
      current = indent;
    }
    current += rest;
  }
  if (current.trim()) lines.push(current);
  return lines;
}

/**
 * Word-wraps printed text to `columns`: each line continues under itself, indented as it is, and
 * a two-column row (`  /help   this list`) continues under its second column.
 */
export function wrapForTerminal(text: string, columns: number): string {
  const width = Math.max(1, columns - 1);
  return text
    .split('\n')
    .flatMap((line) => {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes are skipped to find the columns
      const plain = line.replace(/\u001b\[[0-9;]*m/g, '');
      const lead = /^\s*/.exec(plain)?.[0] ?? '';
      const marker = /^\s*(?:[-+$•]|\d+\.) /.exec(plain)?.[0];
      const column = /^\s*\S+(?: \S+)*? {2,}(?=\S)/.exec(plain)?.[0];
      let indent = lead;
      if (marker) indent = ' '.repeat(marker.length);
      else if (column && column.length <= width / 2) indent = ' '.repeat(column.length);
      const wrapped = wrapLine(line, width, indent);
      return wrapped.length > 1 ? wrapped.map((piece) => piece.replace(/ +$/, '')) : wrapped;
    })
    .join('\n');
}
