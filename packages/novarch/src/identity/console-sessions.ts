import type { Kysely } from 'kysely';
import type { ConsoleSessionRow, IdentityTables } from './identity-tables.js';

// Console sessions (the console's `ConsoleSessionRecords`): one row per signed-in session, so
// sessions survive a restart and every server process on the store sees them.

/**
 * A console session as stored (the console's `ConsoleSessionRecords` port): its id only as a
 * SHA-256 hash, the operator at sign-in as JSON, times in ms since the epoch.
 */
export interface ConsoleSessionRecord {
  /** SHA-256 (hex) of the session id. */
  idHash: string;
  /** The operator token it was signed in with. */
  operatorId: string;
  /** The operator at sign-in, as JSON (the console's `ConsoleOperator`). */
  operator: string;
  createdAt: number;
  lastSeenAt: number;
  /** Its operator token was revoked (then the session is refused, never reactivated). */
  revoked: boolean;
}

export async function insertConsoleSession(
  db: Kysely<IdentityTables>,
  session: Omit<ConsoleSessionRecord, 'revoked'>,
): Promise<void> {
  await db
    .insertInto('novarch_console_sessions')
    .values({
      id_hash: session.idHash,
      operator_id: session.operatorId,
      operator: session.operator,
      created_at: iso(session.createdAt),
      last_seen_at: iso(session.lastSeenAt),
      revoked_at: null,
    })
    .execute();
}

export async function findConsoleSession(
  db: Kysely<IdentityTables>,
  idHash: string,
): Promise<ConsoleSessionRecord | undefined> {
  const row = await db
    .selectFrom('novarch_console_sessions')
    .selectAll()
    .where('id_hash', '=', idHash)
    .executeTakeFirst();
  return row && toConsoleSessionRecord(row);
}

/** Moves a session's last activity forward (never back: another process may have seen it later). */
export async function touchConsoleSession(
  db: Kysely<IdentityTables>,
  idHash: string,
  lastSeenAt: number,
): Promise<void> {
  await db
    .updateTable('novarch_console_sessions')
    .set({ last_seen_at: iso(lastSeenAt) })
    .where('id_hash', '=', idHash)
    .where('last_seen_at', '<', iso(lastSeenAt))
    .execute();
}

export async function deleteConsoleSession(db: Kysely<IdentityTables>, idHash: string): Promise<void> {
  await db.deleteFrom('novarch_console_sessions').where('id_hash', '=', idHash).execute();
}

/** Deletes the sessions that have ended: idle since before `lastSeenBefore`, or created before `createdBefore`. */
export async function deleteEndedConsoleSessions(
  db: Kysely<IdentityTables>,
  ends: { lastSeenBefore: number; createdBefore: number },
): Promise<void> {
  await db
    .deleteFrom('novarch_console_sessions')
    .where((eb) =>
      eb.or([
        eb('last_seen_at', '<', iso(ends.lastSeenBefore)),
        eb('created_at', '<', iso(ends.createdBefore)),
      ]),
    )
    .execute();
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function toConsoleSessionRecord(row: ConsoleSessionRow): ConsoleSessionRecord {
  return {
    idHash: row.id_hash,
    operatorId: row.operator_id,
    operator: row.operator,
    createdAt: Date.parse(row.created_at),
    lastSeenAt: Date.parse(row.last_seen_at),
    revoked: row.revoked_at !== null,
  };
}
