/**
 * Seeded dense unit vectors shaped like a sentence-embedding model's: a shared offset (real
 * embeddings are not centred), clusters (topics) and noise within each, so nearest neighbours are
 * close but not trivial. For recall tests and benches of approximate vector indexes, which the
 * sparse hashed bag-of-words vectors of the fake embeddings server would judge wrongly.
 */
export interface DenseVectorSpace {
  /** The next vector of the space: a random cluster's centre plus noise, unit length. */
  next(): Float32Array;
}

/** A deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `dimensions`-size unit vectors from `clusters` topics, the same for the same seed. */
export function denseVectorSpace(dimensions: number, options: { seed?: number; clusters?: number } = {}) {
  const next = random(options.seed ?? 1);
  const gauss = () => Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
  const offset = Float32Array.from({ length: dimensions }, () => gauss() * 0.5);
  const centres = Array.from({ length: options.clusters ?? 100 }, () =>
    Float32Array.from({ length: dimensions }, (_, index) => (offset[index] ?? 0) + gauss()),
  );
  const space: DenseVectorSpace = {
    next() {
      const centre = centres[Math.floor(next() * centres.length)] ?? offset;
      const vector = Float32Array.from(
        { length: dimensions },
        (_, index) => (centre[index] ?? 0) + gauss() * 1.2,
      );
      let sum = 0;
      for (const value of vector) sum += value * value;
      const norm = Math.sqrt(sum);
      return vector.map((value) => value / norm);
    },
  };
  return space;
}
