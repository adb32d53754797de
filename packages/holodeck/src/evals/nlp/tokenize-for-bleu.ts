/**
 * The word tokenizer of BLEU and METEOR.
 *
 * Steps, in order:
 * 1. Unicode NFC normalisation, so a precomposed `é` and `e` + U+0301 are the same token.
 * 2. Lowercasing (`String.prototype.toLowerCase`, the full Unicode mapping; Python's `str.lower`).
 * 3. Split into tokens: a word is a maximal run of letters, combining marks and numbers
 *    (`[\p{L}\p{M}\p{N}]+`); every other character that is not white space
 *    (punctuation, symbols, emoji, `_`) is a token of its own. White space (`\p{White_Space}`) separates.
 *
 * The fixture script (`test/fixtures/nlp/generate_fixtures.py`) implements the same three steps in
 * Python with the `regex` module and the same pattern, so the token lists that NLTK scores are the
 * ones this function produces. NLTK's `word_tokenize` is not used: it needs the `punkt` model, which
 * cannot be downloaded here, and a second tokenizer would be a second source of disagreement.
 *
 * Examples: `"Hello, World!"` → `['hello', ',', 'world', '!']`; `"it's 42.5%"` →
 * `['it', "'", 's', '42', '.', '5', '%']`.
 */
export function tokenizeForBleu(text: string): string[] {
  return text.normalize('NFC').toLowerCase().match(BLEU_TOKEN_PATTERN) ?? [];
}

/** Shared with the Python fixture script: keep the two patterns identical. */
const BLEU_TOKEN_PATTERN = /[\p{L}\p{M}\p{N}]+|[^\p{L}\p{M}\p{N}\p{White_Space}]/gu;
