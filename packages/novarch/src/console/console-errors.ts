/**
 * A request the console refuses, with the HTTP status and the sentence the operator sees. The
 * message never contains a token or other secret.
 */
export class ConsoleRequestError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413,
    message: string,
  ) {
    super(message);
    this.name = 'ConsoleRequestError';
  }
}
