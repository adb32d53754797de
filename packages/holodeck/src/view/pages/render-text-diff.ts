import { html, type SafeHtml } from './html.js';

/** Words with the spaces after them: a diff keeps the text's own spacing, and spaces alone never match. */
function tokenize(text: string): string[] {
  return text.match(/^\s+|\S+\s*/g) ?? [];
}

/** Beyond this many tokens on each side the diff is not computed (quadratic table). */
const MAX_TOKENS = 1500;

type Part = { kind: 'same' | 'removed' | 'added'; text: string };

/** The word-level diff of two texts (longest common subsequence), or undefined when too long. */
export function diffWords(before: string, after: string): Part[] | undefined {
  const a = tokenize(before);
  const b = tokenize(after);
  if (a.length > MAX_TOKENS || b.length > MAX_TOKENS) return undefined;
  const rows = a.length + 1;
  const columns = b.length + 1;
  const table = new Uint16Array(rows * columns);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      table[i * columns + j] =
        a[i] === b[j]
          ? (table[(i + 1) * columns + j + 1] ?? 0) + 1
          : Math.max(table[(i + 1) * columns + j] ?? 0, table[i * columns + j + 1] ?? 0);
  const parts: Part[] = [];
  const push = (kind: Part['kind'], text: string) => {
    const last = parts.at(-1);
    if (last && last.kind === kind) last.text += text;
    else parts.push({ kind, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push('same', a[i] ?? '');
      i++;
      j++;
    } else if ((table[(i + 1) * columns + j] ?? 0) >= (table[i * columns + j + 1] ?? 0))
      push('removed', a[i++] ?? '');
    else push('added', b[j++] ?? '');
  }
  while (i < a.length) push('removed', a[i++] ?? '');
  while (j < b.length) push('added', b[j++] ?? '');
  return parts;
}

/**
 * A word diff from `before` to `after`: removed words struck through, added ones marked, each
 * also labelled in words for screen readers; both texts escaped.
 */
export function renderTextDiff(
  before: string,
  after: string,
  labels: { before: string; after: string },
): SafeHtml {
  if (before === after) return html`<p class="muted">The same text as ${labels.before}.</p>`;
  const parts = diffWords(before, after);
  if (!parts) return html`<p class="muted">Too long to compare word by word.</p>`;
  return html`<p class="diff-legend small"><del>${labels.before}</del> <ins>${labels.after}</ins></p><div class="text diff">${parts.map(
    (part) =>
      part.kind === 'same'
        ? part.text
        : part.kind === 'removed'
          ? html`<del><span class="visually-hidden">[only in ${labels.before}: </span>${part.text}<span class="visually-hidden">]</span></del>`
          : html`<ins><span class="visually-hidden">[only in ${labels.after}: </span>${part.text}<span class="visually-hidden">]</span></ins>`,
  )}</div>`;
}
