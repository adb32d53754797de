import { HoloDeckError } from '../../errors.js';

/**
 * A run report could not be read, found or saved: a file that is not JSON or not a report, an
 * unsupported schema_version, an unknown run id. The message names the file and what to do.
 */
export class RunReportError extends HoloDeckError {
  override name = 'RunReportError';
  /** The file (or runs directory) the problem is about. */
  readonly source: string;

  constructor(source: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.source = source;
  }
}
