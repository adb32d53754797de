import { NovarchError } from '../errors.js';

/**
 * The operator asked for something the CLI cannot do as given: a bad flag value, an unknown hold
 * or session id, a store that does not exist. The message says what to type instead (exit 2).
 */
export class OperatorUsageError extends NovarchError {
  override name = 'OperatorUsageError';
}

/**
 * The operation was understood and refused: the hold was already decided or nothing waits on it,
 * the session already killed. The message says what the stored state is; nothing was changed (exit 3).
 */
export class OperationRefusedError extends NovarchError {
  override name = 'OperationRefusedError';
}
