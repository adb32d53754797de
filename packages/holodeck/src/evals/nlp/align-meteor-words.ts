import { porterStem } from './porter-stemmer.js';

/** A matched pair: index of the word in the candidate, index in the reference. */
export type WordAlignment = readonly [candidateIndex: number, referenceIndex: number];

/** A word still unmatched, with its position in its sentence. */
type IndexedWord = readonly [index: number, word: string];

/**
 * METEOR's word alignment as NLTK's `_enum_align_words` does it, without the WordNet stage:
 * 1. exact match of the (lowercased) words, then
 * 2. match of the Porter stems (`porterStem`, NLTK's default stemmer) of the words still unmatched.
 * Each stage scans candidate words from last to first and pairs each with the last still-unmatched
 * reference word equal to it (NLTK's `_match_enums`); that order decides which of several equal
 * words pair up, and so the chunk count. Returns the pairs sorted by candidate index.
 */
export function alignMeteorWords(
  candidate: readonly string[],
  reference: readonly string[],
): WordAlignment[] {
  let candidateLeft: IndexedWord[] = candidate.map((word, index) => [index, word]);
  let referenceLeft: IndexedWord[] = reference.map((word, index) => [index, word]);

  const exact = matchWords(candidateLeft, referenceLeft);
  candidateLeft = exact.candidateLeft.map(([index, word]) => [index, porterStem(word)]);
  referenceLeft = exact.referenceLeft.map(([index, word]) => [index, porterStem(word)]);
  const stemmed = matchWords(candidateLeft, referenceLeft);

  return [...exact.matches, ...stemmed.matches].sort((first, second) => first[0] - second[0]);
}

/** NLTK's `_match_enums`: greedy matching of equal words, scanning both lists from the end. */
function matchWords(
  candidateWords: readonly IndexedWord[],
  referenceWords: readonly IndexedWord[],
): { matches: WordAlignment[]; candidateLeft: IndexedWord[]; referenceLeft: IndexedWord[] } {
  const candidateLeft = [...candidateWords];
  const referenceLeft = [...referenceWords];
  const matches: WordAlignment[] = [];
  for (let i = candidateLeft.length - 1; i >= 0; i--) {
    const [candidateIndex, candidateWord] = candidateLeft[i] as IndexedWord;
    for (let j = referenceLeft.length - 1; j >= 0; j--) {
      const [referenceIndex, referenceWord] = referenceLeft[j] as IndexedWord;
      if (candidateWord === referenceWord) {
        matches.push([candidateIndex, referenceIndex]);
        candidateLeft.splice(i, 1);
        referenceLeft.splice(j, 1);
        break;
      }
    }
  }
  return { matches, candidateLeft, referenceLeft };
}
