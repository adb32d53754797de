import { NovarchError } from '../errors.js';

/**
 * The store could not do what was asked: an unknown id, a row that does not parse, a file written
 * by a newer Novarch, or a database that cannot be opened or written. The gate turns it into a
 * refusal (fail-closed); the CLI shows the message, which says what to do.
 */
export class NovarchStoreError extends NovarchError {
  override name = 'NovarchStoreError';
}

/**
 * A store operation named a record that is not there, or not where the operation says it is
 * (an action or evidence of another session): nothing was written. The server answers it as 404,
 * the answer an id of another tenant gets too; the gate refuses as for any store error.
 */
export class UnknownRecordError extends NovarchStoreError {
  override name = 'UnknownRecordError';
  constructor(
    /** What was not found: `action`, `evidence`, `session`, `hold`. */
    readonly noun: string,
    /** The id (or ids) not found. */
    readonly id: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * An action was already decided, stored first: refused (a kill, which nothing later overrides;
 * migration 15: one verdict per action and kind), or released (it ran). Nothing was written.
 * The server answers it as 409.
 */
export class VerdictConflictError extends NovarchStoreError {
  override name = 'VerdictConflictError';
  constructor(
    readonly actionId: string,
    message: string,
    /** The verdict stored first (none when the write was released: it ran). */
    readonly storedVerdictId?: string,
  ) {
    super(message);
  }
}
