/**
 * Smoothing of BLEU's modified n-gram precisions: NLTK's `SmoothingFunction` (Chen & Cherry 2014,
 * "A Systematic Comparison of Smoothing Techniques for Sentence-Level BLEU"), methods 0-4 with
 * NLTK's default parameters (epsilon 0.1, k 5).
 */
export type BleuSmoothing = 'method0' | 'method1' | 'method2' | 'method3' | 'method4';

/** Every smoothing name `sentenceBleu` accepts. */
export const BLEU_SMOOTHINGS: readonly BleuSmoothing[] = [
  'method0',
  'method1',
  'method2',
  'method3',
  'method4',
];

/** A modified precision before smoothing: matched (clipped) n-grams over candidate n-grams (at least 1). */
export interface NgramPrecision {
  numerator: number;
  denominator: number;
}

/** Python's `sys.float_info.min`, which NLTK's method0 puts in place of a zero precision. */
const PYTHON_FLOAT_MIN = 2.2250738585072014e-308;
const EPSILON = 0.1;
const K = 5;

/**
 * Turns precisions into the numbers whose logarithms BLEU averages. A result of 0 means "leave this
 * order out of the sum" (NLTK skips `p_i <= 0`; only method4 on a one-token candidate yields that).
 * @param candidateLength the number of candidate tokens (method4 uses it).
 */
export function smoothPrecisions(
  precisions: readonly NgramPrecision[],
  smoothing: BleuSmoothing,
  candidateLength: number,
): number[] {
  const ratio = ({ numerator, denominator }: NgramPrecision) => numerator / denominator;
  switch (smoothing) {
    case 'method0':
      // No smoothing: a zero precision makes BLEU (practically) 0.
      return precisions.map((p) => (p.numerator !== 0 ? ratio(p) : PYTHON_FLOAT_MIN));
    case 'method1':
      // Add epsilon to zero match counts.
      return precisions.map((p) => (p.numerator === 0 ? (p.numerator + EPSILON) / p.denominator : ratio(p)));
    case 'method2':
      // Add 1 to numerator and denominator of every order above unigrams (Lin & Och 2004).
      return precisions.map((p, index) => (index === 0 ? ratio(p) : (p.numerator + 1) / (p.denominator + 1)));
    case 'method3': {
      // NIST geometric sequence: the k-th zero precision becomes 1 / (2^k * denominator).
      let k = 1;
      return precisions.map((p) => {
        if (p.numerator !== 0) return ratio(p);
        const smoothed = 1 / (2 ** k * p.denominator);
        k++;
        return smoothed;
      });
    }
    case 'method4': {
      // Like method3, scaled by the candidate length: 1 / (2^k * K / ln(length)).
      let k = 1;
      return precisions.map((p) => {
        if (p.numerator !== 0 || candidateLength <= 1) return ratio(p);
        const numerator = 1 / ((2 ** k * K) / Math.log(candidateLength));
        k++;
        return numerator / p.denominator;
      });
    }
  }
}
