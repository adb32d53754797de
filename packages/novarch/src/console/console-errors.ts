/**
 * A request the console refuses, with the HTTP status and the sentence the operator sees. The
 * message never contains a token or other secret.
 */
export class ConsoleRequestError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503,
    message: string,
    /** Sent as `Retry-After` (a 429). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ConsoleRequestError';
  }
}
