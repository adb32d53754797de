// Every page is a string of HTML built here: text from a run (model answers, tool results, judge
// reasons, case names) is data, so it is escaped on the way in, and markup only comes from the
// `html` template's literal parts or from another `html` result.

/** HTML that is safe to insert: built by `html` (or `raw` from a trusted constant). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** What an `html` template may interpolate; anything but SafeHtml is escaped. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text escaped for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** A template whose interpolations are escaped unless they are SafeHtml; arrays are joined. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let result = strings[0] ?? '';
  values.forEach((value, index) => {
    result += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(result);
}

/** Markup from a trusted constant (never from a run). */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
