/**
 * Every error Novarch raises on purpose derives from NovarchError. User-caused errors (a bad rules
 * file or configuration) say how to fix them; a kill carries the verdict's citations. Its own file,
 * in the lowest layer, so the model can throw one too (errors.ts re-exports it).
 */
export class NovarchError extends Error {
  override name = 'NovarchError';
}

/** A NOVARCH_* environment variable holds a value Novarch cannot use; the message names it and the range. */
export class NovarchEnvironmentError extends NovarchError {
  override name = 'NovarchEnvironmentError';
}
