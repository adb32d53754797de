import type { HoldStatus } from './records.js';

/**
 * Where a listing looks: sessions of any of these tenants (of one team, when `teamId` is set). A
 * listing given `within` reads only those rows in the database (another tenant's rows are never
 * read, however many); an empty list matches nothing.
 */
export interface WithinScope {
  tenantId: string;
  teamId?: string;
}

/** Filters of the audit trail (`novarch audit`). */
export interface AuditFilter {
  tenantId?: string;
  /** Only actions of sessions within these scopes (see `WithinScope`). */
  within?: readonly WithinScope[];
  /** Only actions of sessions of this team. */
  teamId?: string;
  agentId?: string;
  sessionId?: string;
  /** Only actions created at or after this time (ISO-8601, e.g. `2026-05-01T00:00:00.000Z`). */
  since?: string;
  /** Only actions created before this time (ISO-8601). */
  until?: string;
  verdict?: 'pass' | 'kill' | 'hold';
  limit?: number;
}

/** What `NovarchStore.listSessions` lists (every session, oldest first, without a filter). */
export interface SessionFilter {
  tenantId?: string;
  agentId?: string;
  killed?: boolean;
  /** Only sessions within these scopes (see `WithinScope`). */
  within?: readonly WithinScope[];
}

/** What `NovarchStore.listHolds` lists. */
export interface HoldFilter {
  status?: HoldStatus;
  sessionId?: string;
  /** Only holds of sessions within these scopes (see `WithinScope`). */
  within?: readonly WithinScope[];
}
