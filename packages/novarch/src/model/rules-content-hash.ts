import { createHash } from 'node:crypto';

/**
 * The canonical form of a rules file's text, which its content hash is taken over: UTF-8 without
 * a byte-order mark, every line ending `\n`. The same file checked out on Windows (CRLF) or saved
 * with a BOM thus has the same hash as the pushed copy; any other change, a comment included,
 * makes a new hash (and a new version when pushed).
 */
export function canonicalRulesContent(text: string): string {
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

/** sha256, in lowercase hex, of `canonicalRulesContent(text)`: what verdicts cite as `contentHash`. */
export function rulesContentHash(text: string): string {
  return createHash('sha256').update(canonicalRulesContent(text), 'utf8').digest('hex');
}
