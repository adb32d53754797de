/**
 * The Porter stemmer exactly as NLTK runs it by default: `nltk.stem.porter.PorterStemmer()` in
 * `NLTK_EXTENSIONS` mode (NLTK 3.8). That mode differs from Martin Porter's published versions
 * (irregular forms such as `dying` → `die`, `ies`/`ied` on four-letter words, `y` → `i` only after a
 * consonant, the `alli`/`fulli`/`logi` rules, a two-letter `*o` condition, ...), which is why no npm
 * stemmer is used: none of them implements those extensions. METEOR's stem stage and ROUGE's optional
 * stemming both need NLTK's behaviour, and the fixture `test/fixtures/nlp/porter.json` pins it.
 *
 * Words are handled as arrays of Unicode code points, like Python strings, so lengths and
 * "last letter" tests agree with NLTK on non-ASCII input too.
 */
export function porterStem(word: string): string {
  const lowered = word.toLowerCase();
  // NLTK looks the word up before lowercasing it and answers with the lowercased form's entry.
  const irregular = IRREGULAR_FORMS.get(word);
  if (irregular !== undefined) return irregular;
  if (Array.from(word).length <= 2) return lowered;

  let stem = Array.from(lowered);
  stem = step1a(stem);
  stem = step1b(stem);
  stem = step1c(stem);
  stem = step2(stem);
  stem = step3(stem);
  stem = step4(stem);
  stem = step5a(stem);
  stem = step5b(stem);
  return stem.join('');
}

/** A word as code points. */
type Letters = string[];

interface Rule {
  /** The suffix to remove; `*d` stands for "ends in a double consonant". */
  suffix: string;
  replacement: string;
  /** Tested on the word without the suffix; no condition means always. */
  condition?: (stem: Letters) => boolean;
}

const IRREGULAR_FORMS = new Map<string, string>([
  ['sky', 'sky'],
  ['skies', 'sky'],
  ['dying', 'die'],
  ['lying', 'lie'],
  ['tying', 'tie'],
  ['news', 'news'],
  ['innings', 'inning'],
  ['inning', 'inning'],
  ['outings', 'outing'],
  ['outing', 'outing'],
  ['cannings', 'canning'],
  ['canning', 'canning'],
  ['howe', 'howe'],
  ['proceed', 'proceed'],
  ['exceed', 'exceed'],
  ['succeed', 'succeed'],
]);

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

/** Consonant flags per position: `y` is a consonant at the start or after a vowel. */
function consonants(word: Letters): boolean[] {
  const flags: boolean[] = [];
  for (let index = 0; index < word.length; index++) {
    const letter = word[index] as string;
    if (VOWELS.has(letter)) flags.push(false);
    else if (letter === 'y') flags.push(index === 0 ? true : !flags[index - 1]);
    else flags.push(true);
  }
  return flags;
}

function isConsonant(word: Letters, index: number): boolean {
  return consonants(word)[index] === true;
}

/** Porter's m: the number of vowel-consonant sequences in `[C](VC){m}[V]`. */
function measure(stem: Letters): number {
  const flags = consonants(stem);
  let count = 0;
  for (let index = 1; index < flags.length; index++) {
    if (!flags[index - 1] && flags[index]) count++;
  }
  return count;
}

function hasPositiveMeasure(stem: Letters): boolean {
  return measure(stem) > 0;
}

function containsVowel(stem: Letters): boolean {
  return consonants(stem).some((flag) => !flag);
}

/** Condition *d. */
function endsDoubleConsonant(word: Letters): boolean {
  const length = word.length;
  return length >= 2 && word[length - 1] === word[length - 2] && isConsonant(word, length - 1);
}

/** Condition *o, with NLTK's extra case of a two-letter vowel-consonant word. */
function endsCvc(word: Letters): boolean {
  const length = word.length;
  const flags = consonants(word);
  const last = word[length - 1] as string;
  return (
    (length >= 3 &&
      flags[length - 3] === true &&
      flags[length - 2] === false &&
      flags[length - 1] === true &&
      last !== 'w' &&
      last !== 'x' &&
      last !== 'y') ||
    (length === 2 && flags[0] === false && flags[1] === true)
  );
}

function endsWith(word: Letters, suffix: string): boolean {
  if (suffix.length > word.length) return false;
  return word.slice(word.length - suffix.length).join('') === suffix;
}

/** The word without `suffix` (which must end it), plus `replacement`. */
function replaceSuffix(word: Letters, suffix: string, replacement: string): Letters {
  return [...word.slice(0, word.length - suffix.length), ...Array.from(replacement)];
}

/** Applies the first rule whose suffix matches; if its condition fails, the word stays as it is. */
function applyRuleList(word: Letters, rules: readonly Rule[]): Letters {
  for (const { suffix, replacement, condition } of rules) {
    if (suffix === '*d' && endsDoubleConsonant(word)) {
      const stem = word.slice(0, -2);
      return condition === undefined || condition(stem) ? [...stem, ...replacement] : word;
    }
    if (endsWith(word, suffix)) {
      const stem = replaceSuffix(word, suffix, '');
      return condition === undefined || condition(stem) ? [...stem, ...Array.from(replacement)] : word;
    }
  }
  return word;
}

function step1a(word: Letters): Letters {
  if (endsWith(word, 'ies') && word.length === 4) return replaceSuffix(word, 'ies', 'ie');
  return applyRuleList(word, [
    { suffix: 'sses', replacement: 'ss' },
    { suffix: 'ies', replacement: 'i' },
    { suffix: 'ss', replacement: 'ss' },
    { suffix: 's', replacement: '' },
  ]);
}

function step1b(word: Letters): Letters {
  if (endsWith(word, 'ied')) return replaceSuffix(word, 'ied', word.length === 4 ? 'ie' : 'i');
  if (endsWith(word, 'eed')) {
    const stem = replaceSuffix(word, 'eed', '');
    return measure(stem) > 0 ? [...stem, 'e', 'e'] : word;
  }
  let intermediate: Letters | undefined;
  for (const suffix of ['ed', 'ing']) {
    if (endsWith(word, suffix)) {
      const candidate = replaceSuffix(word, suffix, '');
      if (containsVowel(candidate)) {
        intermediate = candidate;
        break;
      }
    }
  }
  if (intermediate === undefined) return word;
  const last = intermediate[intermediate.length - 1] as string;
  return applyRuleList(intermediate, [
    { suffix: 'at', replacement: 'ate' },
    { suffix: 'bl', replacement: 'ble' },
    { suffix: 'iz', replacement: 'ize' },
    { suffix: '*d', replacement: last, condition: () => last !== 'l' && last !== 's' && last !== 'z' },
    { suffix: '', replacement: 'e', condition: (stem) => measure(stem) === 1 && endsCvc(stem) },
  ]);
}

function step1c(word: Letters): Letters {
  // NLTK: y -> i only after a consonant that is not the whole stem (happy -> happi, enjoy stays).
  return applyRuleList(word, [
    {
      suffix: 'y',
      replacement: 'i',
      condition: (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1),
    },
  ]);
}

function step2(word: Letters): Letters {
  if (endsWith(word, 'alli') && hasPositiveMeasure(replaceSuffix(word, 'alli', ''))) {
    return step2(replaceSuffix(word, 'alli', 'al'));
  }
  const positive = hasPositiveMeasure;
  return applyRuleList(word, [
    { suffix: 'ational', replacement: 'ate', condition: positive },
    { suffix: 'tional', replacement: 'tion', condition: positive },
    { suffix: 'enci', replacement: 'ence', condition: positive },
    { suffix: 'anci', replacement: 'ance', condition: positive },
    { suffix: 'izer', replacement: 'ize', condition: positive },
    { suffix: 'bli', replacement: 'ble', condition: positive },
    { suffix: 'alli', replacement: 'al', condition: positive },
    { suffix: 'entli', replacement: 'ent', condition: positive },
    { suffix: 'eli', replacement: 'e', condition: positive },
    { suffix: 'ousli', replacement: 'ous', condition: positive },
    { suffix: 'ization', replacement: 'ize', condition: positive },
    { suffix: 'ation', replacement: 'ate', condition: positive },
    { suffix: 'ator', replacement: 'ate', condition: positive },
    { suffix: 'alism', replacement: 'al', condition: positive },
    { suffix: 'iveness', replacement: 'ive', condition: positive },
    { suffix: 'fulness', replacement: 'ful', condition: positive },
    { suffix: 'ousness', replacement: 'ous', condition: positive },
    { suffix: 'aliti', replacement: 'al', condition: positive },
    { suffix: 'iviti', replacement: 'ive', condition: positive },
    { suffix: 'biliti', replacement: 'ble', condition: positive },
    { suffix: 'fulli', replacement: 'ful', condition: positive },
    // NLTK tests the measure of the word minus three letters here, not of the stem.
    { suffix: 'logi', replacement: 'log', condition: () => positive(word.slice(0, -3)) },
  ]);
}

function step3(word: Letters): Letters {
  const positive = hasPositiveMeasure;
  return applyRuleList(word, [
    { suffix: 'icate', replacement: 'ic', condition: positive },
    { suffix: 'ative', replacement: '', condition: positive },
    { suffix: 'alize', replacement: 'al', condition: positive },
    { suffix: 'iciti', replacement: 'ic', condition: positive },
    { suffix: 'ical', replacement: 'ic', condition: positive },
    { suffix: 'ful', replacement: '', condition: positive },
    { suffix: 'ness', replacement: '', condition: positive },
  ]);
}

function step4(word: Letters): Letters {
  const aboveOne = (stem: Letters) => measure(stem) > 1;
  const suffixes = ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent'];
  return applyRuleList(word, [
    ...suffixes.map((suffix) => ({ suffix, replacement: '', condition: aboveOne })),
    {
      suffix: 'ion',
      replacement: '',
      condition: (stem: Letters) => aboveOne(stem) && (stem.at(-1) === 's' || stem.at(-1) === 't'),
    },
    ...['ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'].map((suffix) => ({
      suffix,
      replacement: '',
      condition: aboveOne,
    })),
  ]);
}

function step5a(word: Letters): Letters {
  if (!endsWith(word, 'e')) return word;
  const stem = word.slice(0, -1);
  const m = measure(stem);
  if (m > 1) return stem;
  if (m === 1 && !endsCvc(stem)) return stem;
  return word;
}

function step5b(word: Letters): Letters {
  // The condition looks at the word minus one letter (NLTK), i.e. the stem plus one `l`.
  return applyRuleList(word, [
    { suffix: 'll', replacement: 'l', condition: () => measure(word.slice(0, -1)) > 1 },
  ]);
}
