/**
 * What a remote engine remembers of the sessions it opened, for tests that talk HTTP by hand: the
 * secret each `POST /v1/sessions` answered, and the session of each hold seen in an answer, so a
 * request about a session (or its hold) carries the session's secret as the engine's would.
 */
export class SessionSecrets {
  readonly #secrets = new Map<string, string>();
  readonly #holdSessions = new Map<string, string>();

  /** Learns from an answer: a session just opened (its secret), a decision's or a hold's hold. */
  learn(body: unknown): void {
    if (typeof body !== 'object' || body === null) return;
    const record = body as Record<string, unknown>;
    if (typeof record.id === 'string' && typeof record.sessionSecret === 'string')
      this.#secrets.set(record.id, record.sessionSecret);
    for (const candidate of [record, record.hold]) {
      if (typeof candidate !== 'object' || candidate === null) continue;
      const hold = candidate as Record<string, unknown>;
      if (typeof hold.id === 'string' && hold.id.startsWith('hold_') && typeof hold.sessionId === 'string')
        this.#holdSessions.set(hold.id, hold.sessionId);
    }
  }

  /** The secret header for a request to `url`, or none when it names no session this knows. */
  headersFor(url: string): Record<string, string> {
    const session =
      /\/v1\/sessions\/([^/?]+)/.exec(url)?.[1] ??
      this.#holdSessions.get(/\/v1\/holds\/([^/?]+)/.exec(url)?.[1] ?? '');
    const secret = session === undefined ? undefined : this.#secrets.get(decodeURIComponent(session));
    return secret === undefined ? {} : { 'novarch-session-secret': secret };
  }

  /** The secret of a session (to test a request made without it, or with another's). */
  secretOf(sessionId: string): string | undefined {
    return this.#secrets.get(sessionId);
  }
}
