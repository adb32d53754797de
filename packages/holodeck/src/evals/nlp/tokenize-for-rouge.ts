import { porterStem } from './porter-stemmer.js';

/**
 * The tokenizer of Google's `rouge-score` package (`rouge_score/tokenize.py`), step for step:
 * lowercase, replace every run of characters outside `[a-z0-9]` with a space, split on white
 * space, drop empty tokens. Anything that is not an ASCII letter or digit is therefore a separator:
 * `"café"` → `['caf']`, `"state-of-the-art"` → `['state', 'of', 'the', 'art']`, and a text in a
 * non-Latin script has no tokens at all (its ROUGE scores are 0).
 *
 * With `useStemmer` (off by default, as in `rouge-score`), tokens longer than 3 characters go
 * through the Porter stemmer (NLTK's default mode, which `rouge-score` uses).
 */
export function tokenizeForRouge(text: string, options: { useStemmer?: boolean } = {}): string[] {
  const tokens = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter((token) => token.length > 0);
  if (!options.useStemmer) return tokens;
  return tokens.map((token) => (token.length > 3 ? porterStem(token) : token));
}
