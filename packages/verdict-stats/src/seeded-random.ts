/** A deterministic source of uniform numbers in [0, 1): the same seed, the same sequence. */
export type RandomSource = () => number;

/**
 * The 128-bit state of xoshiro128** for a 32-bit seed, filled by SplitMix32: four words, kept as
 * int32 (the same bits as uint32) so a hot loop of `nextUint32` allocates nothing.
 */
export function xoshiroState(seed: number): Int32Array {
  let mix = seed >>> 0;
  const splitMix = () => {
    mix = (mix + 0x9e3779b9) >>> 0;
    let z = mix;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) | 0;
  };
  return Int32Array.of(splitMix(), splitMix(), splitMix(), splitMix());
}

/** The next output of xoshiro128** as an unsigned 32-bit number; advances `state`. */
export function nextUint32(state: Int32Array): number {
  const a = state[0] as number;
  const b = state[1] as number;
  const c = (state[2] as number) ^ a;
  const d = (state[3] as number) ^ b;
  const times5 = Math.imul(b, 5);
  const result = Math.imul((times5 << 7) | (times5 >>> 25), 9);
  state[1] = b ^ c;
  state[0] = a ^ d;
  state[2] = c ^ (b << 9);
  state[3] = (d << 11) | (d >>> 21);
  return result >>> 0;
}

/**
 * xoshiro128** (Blackman & Vigna, 2018), its 128-bit state filled from the 32-bit seed by
 * SplitMix32. Not for cryptography; for reproducible resampling.
 */
export function seededRandom(seed: number): RandomSource {
  const state = xoshiroState(seed);
  return () => nextUint32(state) / 4294967296;
}
