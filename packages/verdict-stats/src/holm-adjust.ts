/**
 * Holm's step-down adjusted p-values (S. Holm, "A simple sequentially rejective multiple test
 * procedure", Scandinavian Journal of Statistics 6 (1979) 65–70), in the order given: reject
 * hypothesis i at family-wise level α when adjusted[i] ≤ α. The same values as R's
 * `p.adjust(p, "holm")`.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  for (const p of pValues)
    if (!(p >= 0 && p <= 1)) throw new RangeError(`p-values must be between 0 and 1, got ${p}`);
  const count = pValues.length;
  const order = pValues.map((p, index) => ({ p, index })).sort((a, b) => a.p - b.p || a.index - b.index);
  const adjusted = new Array<number>(count).fill(1);
  let running = 0;
  for (const [rank, entry] of order.entries()) {
    running = Math.max(running, Math.min(1, (count - rank) * entry.p));
    adjusted[entry.index] = running;
  }
  return adjusted;
}
