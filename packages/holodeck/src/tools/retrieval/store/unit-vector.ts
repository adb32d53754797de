/**
 * `vector` scaled to length 1 (a zero vector stays as it is). On unit vectors the Euclidean
 * distance ranks exactly as the cosine one (d² = 2 − 2·cos), and sqlite-vec's L2 scan is faster.
 */
export function unitVector(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  if (sum === 0) return vector;
  const norm = Math.sqrt(sum);
  return vector.map((value) => value / norm);
}

/** Cosine similarity of two unit vectors from their Euclidean distance. */
export function cosineOfUnitDistance(distance: number): number {
  return 1 - (distance * distance) / 2;
}
