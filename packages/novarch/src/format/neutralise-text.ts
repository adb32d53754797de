// Text an agent wrote (a write's reasoning, its context's summary and record id, tool inputs and
// outputs) reaches an operator's terminal through `holds show`, `holds list` and `audit`. Raw, it
// could forge lines ("pre-approved by finance"), fake table rows, or hide the real verdict with
// escape codes. Every value these commands print goes through `neutralise` first.

/**
 * C0 controls (newlines and tabs included), DEL, C1 controls (the 8-bit CSI among them), and the
 * Unicode format characters that reorder or hide text: bidi embeddings, overrides and isolates,
 * zero-width characters, the line and paragraph separators.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** `text` on one line with every control and format character shown as a visible escape (`\n`, `\x1b`, `\u202e`). */
export function neutralise(text: string): string {
  return text.replace(UNSAFE, (character) => {
    if (character === '\n') return '\\n';
    if (character === '\r') return '\\r';
    if (character === '\t') return '\\t';
    const code = character.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** How a value an agent supplied is shown: labelled, so an operator never takes it for Novarch's. */
export function agentText(text: string): string {
  return `(agent) ${neutralise(text)}`;
}
