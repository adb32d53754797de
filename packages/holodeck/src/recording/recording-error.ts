import { HoloDeckError } from '../errors.js';

/**
 * A recording folder or file that cannot be used as it is: unreadable JSON, a hand edit that
 * broke the format, a recording of another agent. Nothing was run (exit 2). The message names the
 * file (and line, when known) and says how to fix it.
 */
export class RecordingError extends HoloDeckError {
  override name = 'RecordingError';
  constructor(
    message: string,
    readonly file?: string,
    readonly line?: number,
  ) {
    super(message);
  }
}
