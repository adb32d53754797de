import type { SessionBinding } from '../model/novarch-store.js';
import type { SessionScope } from '../model/records.js';

/** How many sessions' scopes a server remembers (the oldest are forgotten first). */
const DEFAULT_CAPACITY = 50_000;

/** What the server remembers of a session: its tenant and team, and its binding once read. */
export interface RememberedScope extends Pick<SessionScope, 'tenantId' | 'teamId'> {
  /** The agent key and secret hash it was opened with; `null`: none; `undefined`: not read yet. */
  binding?: SessionBinding | null;
}

/**
 * The tenant, team and binding of sessions the server has already read, by session id. None of
 * them changes once a session is opened, so the checks of an agent's evidence and writes need not
 * read the session again on every request (its state, e.g. a kill, is always read from the store).
 */
export class SessionScopeCache {
  readonly #scopes = new Map<string, RememberedScope>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  get(sessionId: string): RememberedScope | undefined {
    return this.#scopes.get(sessionId);
  }

  remember(
    sessionId: string,
    scope: Pick<SessionScope, 'tenantId' | 'teamId'>,
    binding?: SessionBinding | null,
  ): void {
    const known = this.#scopes.get(sessionId);
    if (known !== undefined) {
      if (known.binding === undefined && binding !== undefined) known.binding = binding;
      return;
    }
    if (this.#scopes.size >= this.capacity) {
      const oldest = this.#scopes.keys().next().value;
      if (oldest !== undefined) this.#scopes.delete(oldest);
    }
    this.#scopes.set(sessionId, {
      tenantId: scope.tenantId,
      teamId: scope.teamId,
      ...(binding === undefined ? {} : { binding }),
    });
  }
}
