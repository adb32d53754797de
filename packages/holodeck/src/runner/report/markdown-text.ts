/**
 * Makes text safe for one GitHub-flavoured Markdown table cell: HTML is escaped (so a response
 * cannot open a `<details>` or a comment), pipes are escaped, line breaks become spaces, and
 * long text is cut at `maxLength` characters.
 */
export function markdownCell(text: string, maxLength = 200): string {
  const oneLine = text.replace(/\s*\r?\n\s*/g, ' ').trim();
  const cut = oneLine.length > maxLength ? `${oneLine.slice(0, maxLength - 1)}…` : oneLine;
  return escapeMarkdownHtml(cut).replace(/\|/g, '\\|');
}

/** Escapes `&`, `<` and `>` so GitHub shows them instead of interpreting HTML. */
export function escapeMarkdownHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A Markdown table from a header row and body rows (cells already escaped). */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)];
}

/** Inline code that survives backticks inside the text. */
export function markdownCode(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${text.replace(/\r?\n/g, ' ')}${fence}`;
}
