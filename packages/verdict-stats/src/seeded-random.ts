/** A deterministic source of uniform numbers in [0, 1): the same seed, the same sequence. */
export type RandomSource = () => number;

/**
 * xoshiro128** (Blackman & Vigna, 2018), its 128-bit state filled from the 32-bit seed by
 * SplitMix32. Not for cryptography; for reproducible resampling.
 */
export function seededRandom(seed: number): RandomSource {
  let mix = seed >>> 0;
  const splitMix = () => {
    mix = (mix + 0x9e3779b9) >>> 0;
    let z = mix;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitMix();
  let b = splitMix();
  let c = splitMix();
  let d = splitMix();
  const rotl = (x: number, k: number) => ((x << k) | (x >>> (32 - k))) >>> 0;
  return () => {
    const result = Math.imul(rotl(Math.imul(b, 5) >>> 0, 7), 9) >>> 0;
    const t = (b << 9) >>> 0;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    return result / 4294967296;
  };
}
