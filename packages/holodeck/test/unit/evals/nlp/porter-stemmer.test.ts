import { describe, expect, it } from 'vitest';
import { porterStem } from '../../../../src/evals/nlp/index.js';
import { porterStems } from './load-nlp-fixture.js';

describe('porterStem agrees with NLTK PorterStemmer() in NLTK_EXTENSIONS mode (test/fixtures/nlp/porter.json)', () => {
  const entries = Object.entries(porterStems);

  it('covers the rule list and every fixture token', () => {
    expect(entries.length).toBeGreaterThan(300);
  });

  it.each(entries)('%s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });
});

describe('porterStem', () => {
  it('applies the NLTK extensions that Martin Porter’s versions lack', () => {
    expect(porterStem('dying')).toBe('die'); // irregular form
    expect(porterStem('ties')).toBe('tie'); // -ies on a four-letter word
    expect(porterStem('enjoy')).toBe('enjoy'); // y -> i only after a consonant
    // Values checked with NLTK 3.8; MARTIN_EXTENSIONS gives dy, ti, enjoi.
  });

  it('does not treat object-prototype names as irregular forms', () => {
    expect(porterStem('constructor')).toBe('constructor');
    expect(porterStem('toString')).toBe('tostr');
    expect(porterStem('hasOwnProperty')).toBe('hasownproperti');
    expect(porterStem('__proto__')).toBe('__proto__');
  });
});
