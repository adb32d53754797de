import { checkConfidence, checkCount, clamp, type Interval } from './interval.js';
import { twoSidedZ } from './normal-quantile.js';

/** Cohen's kappa of two raters over the same items, with its asymptotic interval. */
export interface KappaResult {
  /** Items rated by both. */
  items: number;
  observedAgreement: number;
  /** Agreement expected by chance from the two raters' marginal rates. */
  expectedAgreement: number;
  /** Null when undefined: both raters put every item in the same single category (p_e = 1). */
  kappa: number | null;
  /** Asymptotic standard error (Fleiss, Cohen & Everitt 1969); null with kappa. */
  standardError: number | null;
  /** kappa ± z·SE, within [−1, 1]; null with kappa. */
  interval: Interval | null;
}

/**
 * Cohen's kappa (J. Cohen 1960) from a square table of counts, rows = rater 1, columns = rater 2,
 * same categories in the same order. The standard error is the large-sample one of Fleiss, Cohen &
 * Everitt, "Large sample standard errors of kappa and weighted kappa", Psychological Bulletin 72
 * (1969) 323–327: the ASE that SAS PROC FREQ and R's vcd::Kappa report.
 */
export function cohenKappa(table: readonly (readonly number[])[], confidence = 0.95): KappaResult {
  checkConfidence(confidence);
  const size = table.length;
  for (const row of table) {
    if (row.length !== size)
      throw new RangeError(`the table must be square: ${size} rows, a row of ${row.length}`);
    for (const cell of row) checkCount('a count', cell);
  }
  const items = table.reduce((sum, row) => sum + row.reduce((rowSum, cell) => rowSum + cell, 0), 0);
  if (items === 0) throw new RangeError('kappa needs at least one rated item');
  const p = table.map((row) => row.map((cell) => cell / items));
  const rows = p.map((row) => row.reduce((sum, cell) => sum + cell, 0));
  const columns = Array.from({ length: size }, (_, j) => p.reduce((sum, row) => sum + (row[j] ?? 0), 0));
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < size; i += 1) {
    observed += p[i]?.[i] ?? 0;
    expected += (rows[i] ?? 0) * (columns[i] ?? 0);
  }
  const base = { items, observedAgreement: observed, expectedAgreement: expected };
  if (expected >= 1 - 1e-12) return { ...base, kappa: null, standardError: null, interval: null };
  const kappa = (observed - expected) / (1 - expected);
  let diagonal = 0;
  let offDiagonal = 0;
  for (let i = 0; i < size; i += 1) {
    for (let j = 0; j < size; j += 1) {
      const cell = p[i]?.[j] ?? 0;
      if (i === j) diagonal += cell * (1 - ((rows[i] ?? 0) + (columns[i] ?? 0)) * (1 - kappa)) ** 2;
      else offDiagonal += cell * ((columns[i] ?? 0) + (rows[j] ?? 0)) ** 2;
    }
  }
  const numerator = diagonal + (1 - kappa) ** 2 * offDiagonal - (kappa - expected * (1 - kappa)) ** 2;
  const standardError = Math.sqrt(Math.max(0, numerator) / (items * (1 - expected) ** 2));
  const half = twoSidedZ(confidence) * standardError;
  return {
    ...base,
    kappa,
    standardError,
    interval: {
      estimate: kappa,
      lower: clamp(kappa - half, -1, 1),
      upper: clamp(kappa + half, -1, 1),
      confidence,
      method: 'fleiss-cohen-everitt',
    },
  };
}

/** Cohen's kappa from two equally long lists of labels (item i rated `first[i]` and `second[i]`). */
export function cohenKappaOfLabels(
  first: readonly string[],
  second: readonly string[],
  confidence = 0.95,
): KappaResult {
  if (first.length !== second.length)
    throw new RangeError(`the raters rated different numbers of items: ${first.length} and ${second.length}`);
  const categories = [...new Set([...first, ...second])].sort();
  const index = new Map(categories.map((category, position) => [category, position]));
  const table = categories.map(() => categories.map(() => 0));
  for (const [position, label] of first.entries()) {
    const row = table[index.get(label) ?? 0];
    const column = index.get(second[position] ?? '') ?? 0;
    if (row) row[column] = (row[column] ?? 0) + 1;
  }
  return cohenKappa(table, confidence);
}
