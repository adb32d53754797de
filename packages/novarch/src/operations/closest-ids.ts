import { levenshtein } from 'yaml-diagnostics';

/** The `count` candidates nearest to `input` by edit distance, nearest first (ties by id). */
export function closestIds(input: string, candidates: readonly string[], count = 3): string[] {
  return candidates
    .map((candidate) => ({ candidate, distance: levenshtein(input, candidate) }))
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, count)
    .map((entry) => entry.candidate);
}

/** The message for an id that is not in the store, listing the closest ones it does hold. */
export function unknownIdMessage(
  noun: 'hold' | 'session',
  input: string,
  candidates: readonly string[],
  storePath: string,
): string {
  const missing = `No ${noun} "${input}" in the store at ${storePath}`;
  if (candidates.length === 0) return `${missing}: it has no ${noun}s.`;
  const closest = closestIds(input, candidates);
  return `${missing}.\nClosest ${noun} ids:\n${closest.map((id) => `  ${id}`).join('\n')}`;
}
