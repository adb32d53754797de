import { describe, expect, it } from 'vitest';
import { tokenizeForBleu } from '../../../../src/evals/nlp/index.js';

describe('tokenizeForBleu', () => {
  it('lowercases and splits words from punctuation, one token per punctuation mark', () => {
    expect(tokenizeForBleu('Hello, World!')).toEqual(['hello', ',', 'world', '!']);
    expect(tokenizeForBleu("It's 42.5%...")).toEqual(['it', "'", 's', '42', '.', '5', '%', '.', '.', '.']);
    expect(tokenizeForBleu('snake_case')).toEqual(['snake', '_', 'case']);
  });

  it('keeps letters with marks in one word and normalises to NFC first', () => {
    expect(tokenizeForBleu('Caf\u00e9')).toEqual(['caf\u00e9']);
    expect(tokenizeForBleu('Cafe\u0301')).toEqual(['caf\u00e9']);
    expect(tokenizeForBleu('नमस्ते दुनिया')).toEqual(['नमस्ते', 'दुनिया']);
  });

  it('treats emoji and symbols as tokens and any Unicode white space as a separator', () => {
    expect(tokenizeForBleu('I ❤ 🐱\u00a0cats\u2003now')).toEqual(['i', '❤', '🐱', 'cats', 'now']);
    expect(tokenizeForBleu(' \n\t ')).toEqual([]);
  });
});
