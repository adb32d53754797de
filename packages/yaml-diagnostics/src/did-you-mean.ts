/** Edit distance between two strings (insertions, deletions, substitutions). */
export function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidate closest to `input`, if it is close enough to be a plausible typo:
 * a case-insensitive match, or at most a third of the word's letters off (and at least 2 edits allowed).
 */
export function closestMatch(input: string, candidates: readonly string[]): string | undefined {
  const lowered = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = levenshtein(lowered, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const allowed = Math.max(2, Math.floor(input.length / 3));
  return bestDistance <= allowed ? best : undefined;
}

/** `did you mean "x"?` when a candidate is close, otherwise the list of allowed values. */
export function suggestionHint(input: string, candidates: readonly string[], noun = 'allowed'): string {
  const match = closestMatch(input, candidates);
  if (match !== undefined) return `did you mean "${match}"?`;
  return `${noun}: ${candidates.map((candidate) => `"${candidate}"`).join(', ')}`;
}
