import { lexer, type Token, type Tokens } from 'marked';
import { html, type SafeHtml } from './html.js';

// A model's answer as Markdown, the way the chat renders it (src/chat/render-markdown.ts walks
// the same marked tokens): every text is escaped by `html`, raw HTML in the answer is shown as
// text, never as markup, links keep only http(s) and mailto addresses, images become a link.

const SAFE_HREF = /^(https?:|mailto:)/i;

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

function inline(tokens: readonly Token[] | undefined): SafeHtml {
  return html`${(tokens ?? []).map(inlineToken)}`;
}

function inlineToken(token: Token): SafeHtml | string {
  switch (token.type) {
    case 'strong':
      return html`<strong>${inline((token as Tokens.Strong).tokens)}</strong>`;
    case 'em':
      return html`<em>${inline((token as Tokens.Em).tokens)}</em>`;
    case 'del':
      return html`<del>${inline((token as Tokens.Del).tokens)}</del>`;
    case 'codespan':
      return html`<code>${decodeEntities((token as Tokens.Codespan).text)}</code>`;
    case 'br':
      return html`<br>`;
    case 'link': {
      const link = token as Tokens.Link;
      if (!SAFE_HREF.test(link.href)) return html`${inline(link.tokens)} (${link.href})`;
      return html`<a href="${link.href}" rel="noopener noreferrer nofollow">${inline(link.tokens)}</a>`;
    }
    case 'image': {
      const image = token as Tokens.Image;
      const label = `[image: ${image.text || image.href}]`;
      return SAFE_HREF.test(image.href)
        ? html`<a href="${image.href}" rel="noopener noreferrer nofollow">${label}</a>`
        : label;
    }
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens ? inline(text.tokens) : decodeEntities(text.text);
    }
    case 'escape':
      return (token as Tokens.Escape).text;
    default:
      // html, and anything marked adds later: its source, as text.
      return 'raw' in token ? String(token.raw) : '';
  }
}

function block(token: Token): SafeHtml | string {
  switch (token.type) {
    case 'space':
      return '';
    case 'paragraph':
      return html`<p>${inline((token as Tokens.Paragraph).tokens)}</p>`;
    case 'heading':
      // Strong text, not a heading: an answer's headings must not enter the page's outline.
      return html`<p class="md-heading"><strong>${inline((token as Tokens.Heading).tokens)}</strong></p>`;
    case 'code':
      return html`<pre><code>${(token as Tokens.Code).text}</code></pre>`;
    case 'blockquote':
      return html`<blockquote>${(token as Tokens.Blockquote).tokens.map(block)}</blockquote>`;
    case 'hr':
      return html`<hr>`;
    case 'list': {
      const list = token as Tokens.List;
      const items = list.items.map((item) => html`<li>${item.tokens.map(block)}</li>`);
      return list.ordered
        ? html`<ol${typeof list.start === 'number' && list.start !== 1 ? html` start="${list.start}"` : ''}>${items}</ol>`
        : html`<ul>${items}</ul>`;
    }
    case 'table': {
      const table = token as Tokens.Table;
      const align = (index: number) => {
        const value = table.align[index];
        return value ? html` class="align-${value}"` : '';
      };
      return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Table in the answer"><table><thead><tr>${table.header.map(
        (cell, index) => html`<th scope="col"${align(index)}>${inline(cell.tokens)}</th>`,
      )}</tr></thead><tbody>${table.rows.map(
        (row) =>
          html`<tr>${row.map((cell, index) => html`<td${align(index)}>${inline(cell.tokens)}</td>`)}</tr>`,
      )}</tbody></table></div>`;
    }
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens ? html`<p>${inline(text.tokens)}</p>` : html`<p>${decodeEntities(text.text)}</p>`;
    }
    default:
      return html`<p class="text">${'raw' in token ? String(token.raw) : ''}</p>`;
  }
}

/** An answer's Markdown as safe HTML (`<div class="md">`); text that is not Markdown reads as before. */
export function renderMarkdown(text: string): SafeHtml {
  return html`<div class="md">${lexer(text, { gfm: true }).map(block)}</div>`;
}
