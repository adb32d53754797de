import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitIntoEqualChunks, splitIntoWordChunks } from '../../src/wire/split-text.js';

describe('splitting streamed text', () => {
  it('splits several words into three pieces at word boundaries', () => {
    expect(splitIntoWordChunks('Hello there, this is a fake reply.')).toEqual([
      'Hello there, this ',
      'is a fake ',
      'reply.',
    ]);
  });

  it('keeps a single word (and the empty string) whole', () => {
    expect(splitIntoWordChunks('Hello')).toEqual(['Hello']);
    expect(splitIntoWordChunks('')).toEqual(['']);
  });

  it('never loses or reorders characters', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 6 }), (text, count) => {
        expect(splitIntoWordChunks(text, count).join('')).toBe(text);
        expect(splitIntoEqualChunks(text, count).join('')).toBe(text);
        expect(splitIntoEqualChunks(text, count).length).toBeLessThanOrEqual(Math.max(1, count));
      }),
    );
  });
});
