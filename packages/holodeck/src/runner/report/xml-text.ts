// Characters XML 1.0 forbids even as references (C0 controls other than tab, newline and
// carriage return; U+FFFE/U+FFFF; lone surrogates): they are dropped, not escaped.
const INVALID_XML_CHARACTERS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Removes characters that cannot appear in an XML 1.0 document. */
export function stripInvalidXml(text: string): string {
  return text.replace(INVALID_XML_CHARACTERS, '');
}

/** Escapes text for element content. */
export function escapeXmlText(text: string): string {
  return stripInvalidXml(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes text for a double-quoted attribute; newlines and tabs become references so parsers keep them. */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

/** `name="value"` pairs for an element, escaped, in the given order. */
export function xmlAttributes(attributes: Record<string, string | number>): string {
  return Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${escapeXmlAttribute(String(value))}"`)
    .join('');
}
