import { randomBytes } from 'node:crypto';
import type { ConsoleOperator } from './console-deps.js';

/** How long a console session lasts. */
export interface ConsoleSessionOptions {
  /** Without a request for this long, the session ends (default 30 minutes). */
  idleTimeoutMs?: number;
  /** However active, the session ends this long after sign-in (default 12 hours). */
  absoluteTimeoutMs?: number;
}

/** A signed-in operator, kept on the server; the browser holds only its opaque id. */
export interface ConsoleSession {
  id: string;
  operator: ConsoleOperator;
  /** Sent back with every state change (form field `_csrf` or header `X-CSRF-Token`). */
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
}

/** What looking a session id up finds. */
export type SessionLookup =
  | { found: 'active'; session: ConsoleSession }
  | { found: 'expired' }
  | { found: 'none' };

const DEFAULT_IDLE_MS = 30 * 60_000;
const DEFAULT_ABSOLUTE_MS = 12 * 60 * 60_000;

/**
 * The console's sessions, in this process's memory: a restart signs every operator out (the
 * token is not kept, so nothing can sign them back in). Expired sessions are dropped as they are
 * met and on each sign-in.
 */
export class ConsoleSessionStore {
  readonly #sessions = new Map<string, ConsoleSession>();
  readonly #idleMs: number;
  readonly #absoluteMs: number;

  constructor(
    options: ConsoleSessionOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.#idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_MS;
    this.#absoluteMs = options.absoluteTimeoutMs ?? DEFAULT_ABSOLUTE_MS;
  }

  create(operator: ConsoleOperator): ConsoleSession {
    const at = this.now();
    for (const [id, session] of this.#sessions) if (this.#expired(session, at)) this.#sessions.delete(id);
    const session: ConsoleSession = {
      id: randomBytes(32).toString('base64url'),
      operator,
      csrfToken: randomBytes(32).toString('base64url'),
      createdAt: at,
      lastSeenAt: at,
    };
    this.#sessions.set(session.id, session);
    return session;
  }

  /** The session of this id; an active one counts as seen now. */
  lookup(id: string | undefined): SessionLookup {
    if (id === undefined || id === '') return { found: 'none' };
    const session = this.#sessions.get(id);
    if (session === undefined) return { found: 'none' };
    const at = this.now();
    if (this.#expired(session, at)) {
      this.#sessions.delete(id);
      return { found: 'expired' };
    }
    session.lastSeenAt = at;
    return { found: 'active', session };
  }

  /** Whether the session is still active, without counting as activity (live event streams). */
  isActive(session: ConsoleSession): boolean {
    return this.#sessions.get(session.id) === session && !this.#expired(session, this.now());
  }

  delete(id: string): void {
    this.#sessions.delete(id);
  }

  #expired(session: ConsoleSession, at: number): boolean {
    return at - session.lastSeenAt > this.#idleMs || at - session.createdAt > this.#absoluteMs;
  }
}
