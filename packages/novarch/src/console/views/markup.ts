import { html, raw } from 'hono/html';

// Every page is built with hono's `html` template: interpolated strings are escaped (& < > " '),
// nested `html` results are not escaped twice. Agent-supplied text is only ever interpolated,
// never passed to `raw`.

/** A piece of escaped HTML. */
export type Markup = ReturnType<typeof html>;

export { html, raw };

/** The longest JSON text shown inline; the rest is cut, saying so. */
const MAX_JSON_CHARS = 8_000;

/** A value as pretty JSON in a `<pre>`, escaped, cut at `MAX_JSON_CHARS`. */
export function jsonBlock(value: unknown): Markup {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  const cut =
    text.length > MAX_JSON_CHARS
      ? `${text.slice(0, MAX_JSON_CHARS)}\n… (${text.length} characters, cut)`
      : text;
  return html`<pre class="json">${cut}</pre>`;
}

/** A time as `<time>`, shown as UTC `2026-05-01 10:00:02`. */
export function timeTag(iso: string | undefined): Markup {
  if (iso === undefined) return html`<span class="muted">—</span>`;
  const shown = iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  return html`<time datetime="${iso}">${shown}</time>`;
}

/** A path segment for an id: ids come from the store, but never trust what ends up in a URL. */
export function idPath(id: string): string {
  return encodeURIComponent(id);
}

/** A hidden field with the session's CSRF token, for every form that changes state. */
export function csrfField(token: string): Markup {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}
