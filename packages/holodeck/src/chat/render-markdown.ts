import { lexer, type Token, type Tokens } from 'marked';
import type { ChatStyle } from './chat-style.js';
import { neutraliseTerminalText } from './neutralise-terminal-text.js';
import { terminalTextWidth, wrapLine } from './terminal-text-width.js';

function inline(tokens: readonly Token[] | undefined, style: ChatStyle): string {
  return (tokens ?? []).map((token) => inlineToken(token, style)).join('');
}

function inlineToken(token: Token, style: ChatStyle): string {
  switch (token.type) {
    case 'strong':
      return style.bold(inline((token as Tokens.Strong).tokens, style));
    case 'em':
      return style.italic(inline((token as Tokens.Em).tokens, style));
    case 'del':
      return `~${inline((token as Tokens.Del).tokens, style)}~`;
    case 'codespan':
      return style.cyan((token as Tokens.Codespan).text);
    case 'br':
      return '\n';
    case 'link': {
      const link = token as Tokens.Link;
      const text = inline(link.tokens, style);
      // A terminal with hyperlinks shows the text, clickable; others show where it points.
      if (style.hyperlinks) return style.link(style.underline(text), link.href);
      return text === link.href ? style.underline(text) : `${text} (${style.underline(link.href)})`;
    }
    case 'image':
      return `[image: ${(token as Tokens.Image).text}]`;
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens ? inline(text.tokens, style) : decodeEntities(text.text);
    }
    case 'escape':
      return (token as Tokens.Escape).text;
    default:
      return 'raw' in token ? String(token.raw) : '';
  }
}

function decodeEntities(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}

function wrapText(text: string, width: number, firstPrefix: string, restPrefix: string): string[] {
  const out: string[] = [];
  for (const [index, paragraphLine] of text.split('\n').entries()) {
    const prefix = index === 0 ? firstPrefix : restPrefix;
    const room = width - terminalTextWidth(prefix);
    const wrapped = wrapLine(paragraphLine, room);
    wrapped.forEach((line, lineIndex) => {
      out.push(`${index === 0 && lineIndex === 0 ? firstPrefix : restPrefix}${line.replace(/^ +/, '')}`);
    });
  }
  return out;
}

function renderTable(table: Tokens.Table, width: number, style: ChatStyle): string[] {
  const header = table.header.map((cell) => inline(cell.tokens, style));
  const rows = table.rows.map((row) => row.map((cell) => inline(cell.tokens, style)));
  const columns = header.length;
  const widths = Array.from({ length: columns }, (_, column) =>
    Math.max(3, ...[header, ...rows].map((row) => terminalTextWidth(row[column] ?? ''))),
  );
  // Shrink the widest columns until the table fits (3 columns of borders per cell).
  const budget = Math.max(columns * 4, width - (columns * 3 + 1));
  while (widths.reduce((sum, value) => sum + value, 0) > budget) {
    const widest = widths.indexOf(Math.max(...widths));
    if ((widths[widest] ?? 0) <= 4) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
  // Cells keep the table's alignment (`:--`, `:-:`, `--:`).
  const fit = (text: string, size: number, column: number) => {
    const plain =
      // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
      terminalTextWidth(text) > size ? `${text.replace(/\u001b\[[0-9;]*m/g, '').slice(0, size - 1)}…` : text;
    const room = Math.max(0, size - terminalTextWidth(plain));
    const align = table.align[column];
    if (align === 'right') return ' '.repeat(room) + plain;
    if (align === 'center') return ' '.repeat(Math.floor(room / 2)) + plain + ' '.repeat(Math.ceil(room / 2));
    return plain + ' '.repeat(room);
  };
  const line = (cells: string[]) =>
    `│ ${cells.map((cell, column) => fit(cell, widths[column] ?? 3, column)).join(' │ ')} │`;
  const rule = (left: string, middle: string, right: string) =>
    `${left}${widths.map((size) => '─'.repeat(size + 2)).join(middle)}${right}`;
  return [
    rule('┌', '┬', '┐'),
    line(header.map((cell) => style.bold(cell))),
    rule('├', '┼', '┤'),
    ...rows.map(line),
    rule('└', '┴', '┘'),
  ];
}

function block(token: Token, width: number, style: ChatStyle, depth: number): string[] {
  switch (token.type) {
    case 'heading': {
      const heading = token as Tokens.Heading;
      return wrapText(style.bold(inline(heading.tokens, style)), width, '', '').map((line) =>
        heading.depth <= 2 ? style.underline(line) : line,
      );
    }
    case 'paragraph':
      return wrapText(inline((token as Tokens.Paragraph).tokens, style), width, '', '');
    case 'text': {
      const text = token as Tokens.Text;
      return wrapText(text.tokens ? inline(text.tokens, style) : text.text, width, '', '');
    }
    case 'code': {
      const code = token as Tokens.Code;
      const label = code.lang ? style.dim(`  ${code.lang}`) : '';
      // Code keeps its lines, indented; a line too long is cut at the width and goes on indented.
      const room = Math.max(10, width - 2);
      const lines = code.text.split('\n').flatMap((line) => {
        const pieces: string[] = [];
        let rest = line;
        while (terminalTextWidth(rest) > room) {
          let cut = 0;
          while (cut < rest.length && terminalTextWidth(rest.slice(0, cut + 1)) <= room) cut += 1;
          pieces.push(rest.slice(0, Math.max(1, cut)));
          rest = rest.slice(Math.max(1, cut));
        }
        pieces.push(rest);
        return pieces.map((piece) => `  ${style.cyan(piece)}`);
      });
      return [...(label ? [label] : []), ...lines];
    }
    case 'blockquote': {
      const quote = token as Tokens.Blockquote;
      return quote.tokens
        .flatMap((child) => block(child, width - 2, style, depth))
        .map((line) => `${style.dim('│')} ${line}`);
    }
    case 'list': {
      const list = token as Tokens.List;
      const start = typeof list.start === 'number' ? list.start : 1;
      return list.items.flatMap((item, index) => {
        const bullet = list.ordered ? `${start + index}. ` : item.task ? (item.checked ? '☑ ' : '☐ ') : '• ';
        const indent = ' '.repeat(bullet.length);
        // The bullet shows a task's box; marked also gives it as a `checkbox` token.
        const lines = item.tokens
          .filter((child) => child.type !== 'checkbox')
          .flatMap((child) => block(child, width - bullet.length, style, depth + 1));
        return lines.map((line, lineIndex) => (lineIndex === 0 ? bullet : indent) + line);
      });
    }
    case 'table':
      return renderTable(token as Tokens.Table, width, style);
    case 'hr':
      return [style.dim('─'.repeat(Math.min(width, 40)))];
    case 'space':
      return [];
    case 'html':
      return wrapText((token as Tokens.HTML).text.trimEnd(), width, '', '');
    default:
      return 'raw' in token ? wrapText(String(token.raw).trimEnd(), width, '', '') : [];
  }
}

/**
 * A finished message of the model as terminal text: headings, emphasis, code blocks, lists,
 * tables and quotes, word-wrapped to `width` columns. Control sequences in the text are
 * neutralised first, so only this renderer's own colour codes reach the terminal.
 */
export function renderMarkdown(markdown: string, width: number, style: ChatStyle): string {
  const tokens = lexer(neutraliseTerminalText(markdown), { gfm: true });
  const blocks = tokens
    .filter((token) => token.type !== 'space')
    .map((token) => block(token, Math.max(20, width), style, 0).join('\n'));
  return blocks.join('\n\n');
}
