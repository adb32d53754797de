import TurndownService from 'turndown';

let service: TurndownService | undefined;

/** What the table rule reads of turndown's DOM nodes (domino in Node). */
interface DomNode {
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}

/** A table cell's text on one line, its pipes escaped, so each row stays one Markdown table row. */
function cellText(cell: DomNode): string {
  return (cell.textContent ?? '').replace(/\s+/g, ' ').trim().replaceAll('|', '\\|');
}

/** The `<tr>` rows of a table (through thead/tbody/tfoot), not those of tables nested in its cells. */
function rowsOf(node: DomNode): DomNode[] {
  return Array.from(node.childNodes).flatMap((child) =>
    child.nodeName === 'TR' ? [child] : /^(THEAD|TBODY|TFOOT)$/.test(child.nodeName) ? rowsOf(child) : [],
  );
}

/** An HTML (or DOCX) table as a Markdown table: one line per row, the first row as its header. */
function tableMarkdown(table: DomNode): string {
  const lines = rowsOf(table)
    .map((row) => Array.from(row.childNodes).filter((cell) => /^(TD|TH)$/.test(cell.nodeName)))
    .filter((cells) => cells.length)
    .map((cells) => `| ${cells.map(cellText).join(' | ')} |`);
  if (!lines.length) return '';
  const columns = (lines[0]?.match(/(?<!\\)\|/g)?.length ?? 2) - 1;
  const separator = `|${' --- |'.repeat(Math.max(1, columns))}`;
  return `\n\n${[lines[0], separator, ...lines.slice(1)].join('\n')}\n\n`;
}

/**
 * Text is kept as written (turndown's Markdown escapes, `2\.` or `L\*`, would reach the model and
 * the keyword index), except what would change the document's structure when it is split:
 * a line that would read as a heading or a code fence.
 */
function escapeStructure(text: string): string {
  return text.replace(/^(\s*)(#{1,6}(?:\s|$)|```|~~~)/gm, '$1\\$2');
}

/**
 * HTML as markdown (ATX headings, fenced code), so it chunks by its headings like markdown does.
 * Scripts, styles and other non-content elements are dropped; `<pre>` (with or without `<code>`)
 * becomes a fenced block, so `#` lines of code are never read as headings; tables become Markdown
 * tables, one line per row.
 */
export function htmlToMarkdown(html: string): string {
  if (!service) {
    service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
    service.escape = escapeStructure;
    service.remove(['script', 'style', 'noscript', 'template', 'head']);
    service.addRule('preformatted', {
      filter: 'pre',
      replacement: (_content, node) => {
        const code = (node.textContent ?? '').replace(/\n+$/, '');
        const fence = code.includes('```') ? '~~~~' : '```';
        return `\n\n${fence}\n${code}\n${fence}\n\n`;
      },
    });
    service.addRule('table', {
      filter: 'table',
      replacement: (_content, node) => tableMarkdown(node as unknown as DomNode),
    });
  }
  return service.turndown(html);
}
