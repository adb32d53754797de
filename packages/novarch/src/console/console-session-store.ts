import { createHash, createHmac, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { ConsoleSessionRecord } from '../identity/console-sessions.js';
import type { ConsoleOperator } from './console-deps.js';

export type { ConsoleSessionRecord };

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

/** What looking a session id up finds (`revoked`: its operator token was revoked). */
export type SessionLookup =
  | { found: 'active'; session: ConsoleSession }
  | { found: 'expired' }
  | { found: 'revoked' }
  | { found: 'none' };

/** Where the console keeps its sessions: this process's memory, or the store (`StoredConsoleSessionStore`). */
export interface ConsoleSessionStore {
  create(operator: ConsoleOperator): Promise<ConsoleSession>;
  /** The session of this id; an active one counts as seen now. */
  lookup(id: string | undefined): Promise<SessionLookup>;
  /** Whether the session is still active, without counting as activity (live event streams). */
  isActive(session: ConsoleSession): Promise<boolean>;
  delete(id: string): Promise<void>;
}

const DEFAULT_IDLE_MS = 30 * 60_000;
const DEFAULT_ABSOLUTE_MS = 12 * 60 * 60_000;
/** A session id: 32 random bytes, base64url. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

abstract class SessionClock {
  protected readonly idleMs: number;
  protected readonly absoluteMs: number;

  constructor(
    options: ConsoleSessionOptions,
    protected readonly now: () => number,
  ) {
    this.idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_MS;
    this.absoluteMs = options.absoluteTimeoutMs ?? DEFAULT_ABSOLUTE_MS;
  }

  protected expired(session: { createdAt: number; lastSeenAt: number }, at: number): boolean {
    return at - session.lastSeenAt > this.idleMs || at - session.createdAt > this.absoluteMs;
  }
}

/**
 * The console's sessions in this process's memory (a console app without a store for them): a
 * restart signs every operator out, and processes do not share them. Expired sessions are dropped
 * as they are met and on each sign-in.
 */
export class MemoryConsoleSessionStore extends SessionClock implements ConsoleSessionStore {
  readonly #sessions = new Map<string, ConsoleSession>();

  constructor(options: ConsoleSessionOptions = {}, now: () => number = Date.now) {
    super(options, now);
  }

  async create(operator: ConsoleOperator): Promise<ConsoleSession> {
    const at = this.now();
    for (const [id, session] of this.#sessions) if (this.expired(session, at)) this.#sessions.delete(id);
    const session: ConsoleSession = {
      id: newSessionId(),
      operator,
      csrfToken: randomBytes(32).toString('base64url'),
      createdAt: at,
      lastSeenAt: at,
    };
    this.#sessions.set(session.id, session);
    return session;
  }

  async lookup(id: string | undefined): Promise<SessionLookup> {
    if (id === undefined || id === '') return { found: 'none' };
    const session = this.#sessions.get(id);
    if (session === undefined) return { found: 'none' };
    const at = this.now();
    if (this.expired(session, at)) {
      this.#sessions.delete(id);
      return { found: 'expired' };
    }
    session.lastSeenAt = at;
    return { found: 'active', session };
  }

  async isActive(session: ConsoleSession): Promise<boolean> {
    return this.#sessions.get(session.id) === session && !this.expired(session, this.now());
  }

  async delete(id: string): Promise<void> {
    this.#sessions.delete(id);
  }
}

/** What `StoredConsoleSessionStore` needs of a store: the identity store (`IdentityStore`) has it. */
export interface ConsoleSessionRecords {
  insertConsoleSession(session: Omit<ConsoleSessionRecord, 'revoked'>): Promise<void>;
  findConsoleSession(idHash: string): Promise<ConsoleSessionRecord | undefined>;
  /** Sets the last activity, unless a later one is stored. */
  touchConsoleSession(idHash: string, lastSeenAt: number): Promise<void>;
  deleteConsoleSession(idHash: string): Promise<void>;
  /** Deletes sessions idle since before `lastSeenBefore` or created before `createdBefore`. */
  deleteEndedConsoleSessions(ends: { lastSeenBefore: number; createdBefore: number }): Promise<void>;
}

const OperatorSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  role: z.enum(['operator', 'admin']),
  grants: z.array(z.object({ tenantId: z.string().min(1), teamId: z.string().min(1).optional() })),
});

/**
 * The console's sessions in the store (the identity tables' `novarch_console_sessions`): they
 * survive a restart, and every server process on the store shares them. Only the SHA-256 of a
 * session id is stored, so the database alone cannot sign anyone in; the CSRF token is derived
 * from the id (HMAC-SHA256), so it is stored nowhere either. The last activity is written at most
 * every `min(idle timeout / 10, 1 minute)`, so an idle session may end that much early. Ended
 * sessions are deleted as they are met and on each sign-in.
 */
export class StoredConsoleSessionStore extends SessionClock implements ConsoleSessionStore {
  readonly #touchMs: number;

  constructor(
    private readonly records: ConsoleSessionRecords,
    options: ConsoleSessionOptions = {},
    now: () => number = Date.now,
  ) {
    super(options, now);
    this.#touchMs = Math.min(60_000, Math.floor(this.idleMs / 10));
  }

  async create(operator: ConsoleOperator): Promise<ConsoleSession> {
    const at = this.now();
    await this.records.deleteEndedConsoleSessions({
      lastSeenBefore: at - this.idleMs,
      createdBefore: at - this.absoluteMs,
    });
    const id = newSessionId();
    const stored: ConsoleOperator = {
      id: operator.id,
      name: operator.name,
      role: operator.role,
      grants: operator.grants.map((grant) =>
        grant.teamId === undefined
          ? { tenantId: grant.tenantId }
          : { tenantId: grant.tenantId, teamId: grant.teamId },
      ),
    };
    await this.records.insertConsoleSession({
      idHash: hashSessionId(id),
      operatorId: operator.id,
      operator: JSON.stringify(stored),
      createdAt: at,
      lastSeenAt: at,
    });
    return { id, operator, csrfToken: csrfTokenOf(id), createdAt: at, lastSeenAt: at };
  }

  async lookup(id: string | undefined): Promise<SessionLookup> {
    if (id === undefined || !SESSION_ID.test(id)) return { found: 'none' };
    const idHash = hashSessionId(id);
    const record = await this.records.findConsoleSession(idHash);
    if (record === undefined) return { found: 'none' };
    const operator = parseOperator(record.operator);
    if (operator === undefined || operator.id !== record.operatorId) {
      // A row this code cannot read signs nobody in (fail-closed).
      await this.records.deleteConsoleSession(idHash);
      return { found: 'none' };
    }
    if (record.revoked) return { found: 'revoked' };
    const at = this.now();
    if (this.expired(record, at)) {
      await this.records.deleteConsoleSession(idHash);
      return { found: 'expired' };
    }
    let lastSeenAt = record.lastSeenAt;
    if (at - lastSeenAt >= this.#touchMs) {
      await this.records.touchConsoleSession(idHash, at);
      lastSeenAt = at;
    }
    return {
      found: 'active',
      session: { id, operator, csrfToken: csrfTokenOf(id), createdAt: record.createdAt, lastSeenAt },
    };
  }

  async isActive(session: ConsoleSession): Promise<boolean> {
    if (!SESSION_ID.test(session.id)) return false;
    const record = await this.records.findConsoleSession(hashSessionId(session.id));
    return record !== undefined && !record.revoked && !this.expired(record, this.now());
  }

  async delete(id: string): Promise<void> {
    if (SESSION_ID.test(id)) await this.records.deleteConsoleSession(hashSessionId(id));
  }
}

/** The SHA-256 (hex) a session id is stored under. */
export function hashSessionId(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('hex');
}

function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/** A stored session's CSRF token: the same in every process that has its id, and stored nowhere. */
function csrfTokenOf(id: string): string {
  return createHmac('sha256', id).update('novarch console csrf token').digest('base64url');
}

function parseOperator(text: string): ConsoleOperator | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = OperatorSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const { id, name, role, grants } = parsed.data;
  return {
    id,
    name,
    role,
    grants: grants.map((grant) =>
      grant.teamId === undefined
        ? { tenantId: grant.tenantId }
        : { tenantId: grant.tenantId, teamId: grant.teamId },
    ),
  };
}
