import type { SessionScope } from '../model/records.js';

/** How many sessions' scopes a server remembers (the oldest are forgotten first). */
const DEFAULT_CAPACITY = 50_000;

/**
 * The tenant and team of sessions the server has already read, by session id. A session's scope
 * never changes once opened, so the tenant checks of an agent's evidence and writes need not
 * read the session again on every request (its state, e.g. a kill, is always read from the store).
 */
export class SessionScopeCache {
  readonly #scopes = new Map<string, Pick<SessionScope, 'tenantId' | 'teamId'>>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  get(sessionId: string): Pick<SessionScope, 'tenantId' | 'teamId'> | undefined {
    return this.#scopes.get(sessionId);
  }

  remember(sessionId: string, scope: Pick<SessionScope, 'tenantId' | 'teamId'>): void {
    if (this.#scopes.has(sessionId)) return;
    if (this.#scopes.size >= this.capacity) {
      const oldest = this.#scopes.keys().next().value;
      if (oldest !== undefined) this.#scopes.delete(oldest);
    }
    this.#scopes.set(sessionId, { tenantId: scope.tenantId, teamId: scope.teamId });
  }
}
