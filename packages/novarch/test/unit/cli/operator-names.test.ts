import { describe, expect, it } from 'vitest';
import { checkOperatorName } from '../../../src/operations/governed-process.js';

describe('reserved operator names', () => {
  it.each(['novarch', 'Novarch', ' judge ', 'ｎｏｖａｒｃｈ', 'novarch:timeout'])('refuses %j', (name) => {
    expect(() => checkOperatorName(name)).toThrow(/is reserved for Novarch itself/);
  });

  it('refuses invisible characters, naming the code point', () => {
    expect(() => checkOperatorName('nov\u200barch')).toThrow(
      'The operator name "nov\\u200barch" contains an invisible character (U+200B): type the name plainly.',
    );
    expect(() => checkOperatorName('ana\u202e')).toThrow(/contains an invisible character \(U\+202E\)/);
  });

  it('accepts ordinary names, accents included', () => {
    expect(checkOperatorName(' ana ')).toBe('ana');
    expect(checkOperatorName('José Núñez')).toBe('José Núñez');
  });
});
