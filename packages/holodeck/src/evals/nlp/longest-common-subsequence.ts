/**
 * Length of the longest common subsequence of two token lists (the value of rouge-score's
 * `_lcs_table(ref, can)[-1][-1]`), by dynamic programming over two rows: O(n·m) time, O(m) memory.
 */
export function longestCommonSubsequenceLength(first: readonly string[], second: readonly string[]): number {
  let previous = new Array<number>(second.length + 1).fill(0);
  let current = new Array<number>(second.length + 1).fill(0);
  for (let i = 1; i <= first.length; i++) {
    for (let j = 1; j <= second.length; j++) {
      current[j] =
        first[i - 1] === second[j - 1]
          ? (previous[j - 1] as number) + 1
          : Math.max(previous[j] as number, current[j - 1] as number);
    }
    [previous, current] = [current, previous];
  }
  return previous[second.length] as number;
}
