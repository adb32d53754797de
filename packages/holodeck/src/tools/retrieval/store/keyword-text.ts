/**
 * `text` as the words keyword search indexes, separated by single spaces: letters and digits
 * only, lower case, diacritics folded (`café` → `cafe`). It is what FTS5's unicode61 tokenizer
 * (remove_diacritics 2) makes of a text, so that PostgreSQL, given this text, counts the same
 * words as the embedded index does (its parser would otherwise keep `/var/log` or `1.2.3` whole).
 */
export function keywordText(text: string): string {
  return (
    text
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.join(' ') ?? ''
  );
}
