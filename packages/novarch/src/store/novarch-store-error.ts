import { NovarchError } from '../errors.js';

/**
 * The store could not do what was asked: an unknown id, a row that does not parse, a file written
 * by a newer Novarch, or a database that cannot be opened or written. The gate turns it into a
 * refusal (fail-closed); the CLI shows the message, which says what to do.
 */
export class NovarchStoreError extends NovarchError {
  override name = 'NovarchStoreError';
}
