/**
 * Levenshtein (edit) distance between two strings, counted in Unicode code points: the fewest
 * single-character insertions, deletions and substitutions turning `a` into `b`. No case folding or
 * Unicode normalisation: `"é"` precomposed and `"e\u0301"` differ.
 */
export function levenshteinDistance(a: string, b: string): number {
  const first = Array.from(a);
  const second = Array.from(b);
  let previous = Array.from({ length: second.length + 1 }, (_, index) => index);
  let current = new Array<number>(second.length + 1).fill(0);
  for (let i = 1; i <= first.length; i++) {
    current[0] = i;
    for (let j = 1; j <= second.length; j++) {
      const substitution = (previous[j - 1] as number) + (first[i - 1] === second[j - 1] ? 0 : 1);
      current[j] = Math.min(substitution, (previous[j] as number) + 1, (current[j - 1] as number) + 1);
    }
    [previous, current] = [current, previous];
  }
  return previous[second.length] as number;
}

/**
 * Normalised Levenshtein similarity in [0, 1]: 1 - distance / (length of the longer string), in code
 * points; 1 for two empty strings.
 */
export function levenshteinSimilarity(a: string, b: string): number {
  const longer = Math.max(Array.from(a).length, Array.from(b).length);
  if (longer === 0) return 1;
  return 1 - levenshteinDistance(a, b) / longer;
}
