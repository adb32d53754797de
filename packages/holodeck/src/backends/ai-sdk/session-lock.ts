import { randomUUID } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { AgentSessionError } from '../../errors.js';
import { isProcessRunning, takeOverStaleLock } from '../../lock-files.js';
import { sessionsDirectory } from './session-file-schema.js';

/** What a lock file says: who holds the session. */
interface LockHolder {
  pid: number;
  host: string;
  since: string;
  /** Tells this holder's lock from a later one of the same process id. */
  token: string;
}

/** The lock file of one session. The id must match SESSION_ID_PATTERN (checked by the callers). */
export function sessionLockPath(agentDirectory: string, sessionId: string): string {
  return path.join(sessionsDirectory(agentDirectory), `${sessionId}.lock`);
}

/** Locks this process holds (file → token): released by release(), else as the process exits. */
const held = new Map<string, string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A chat that ends without closing its session (process.exit on a second Ctrl+C) leaves no lock.
  process.once('exit', () => {
    for (const [file, token] of held) {
      try {
        if (parseHolder(readFileSync(file, 'utf8'))?.token === token) unlinkSync(file);
      } catch {
        // already gone
      }
    }
  });
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const data: unknown = JSON.parse(text);
    if (typeof data !== 'object' || data === null) return undefined;
    const { pid, host, since, token } = data as Record<string, unknown>;
    if (!Number.isInteger(pid) || typeof host !== 'string' || typeof token !== 'string') return undefined;
    return { pid: pid as number, host, since: typeof since === 'string' ? since : 'an unknown time', token };
  } catch {
    return undefined;
  }
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error ? String(error.code) : undefined;
}

type Reading = { kind: 'none' } | { kind: 'holder'; holder: LockHolder } | { kind: 'unreadable' };

async function readLock(file: string): Promise<Reading> {
  // A lock is written right after its file is created: a reader between the two sees it empty.
  for (let attempt = 0; attempt < 5; attempt++) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return { kind: 'none' };
      throw error;
    }
    const holder = parseHolder(text);
    if (holder) return { kind: 'holder', holder };
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  return { kind: 'unreadable' };
}

/** Why `holder` still holds the session, or undefined when its lock is stale (its process is gone). */
function liveHolder(holder: LockHolder): string | undefined {
  if (holder.host !== hostname())
    return `process ${holder.pid} on ${holder.host} holds it (since ${holder.since}); HoloDeck cannot tell from here whether that process still runs`;
  if (holder.pid === process.pid) {
    // This process's own lock, or one left by an earlier process that had the same id.
    return [...held.values()].includes(holder.token)
      ? `this process (${holder.pid}) already has it open in another session (since ${holder.since})`
      : undefined;
  }
  return isProcessRunning(holder.pid) ? `process ${holder.pid} holds it (since ${holder.since})` : undefined;
}

/**
 * An exclusive lock on one saved AI SDK session, `<agent folder>/.holodeck/sessions/<id>.lock`,
 * held by the chat that has the session open, so two processes never write the same session
 * file (each saves the whole history after every turn: the last writer's turns would be all that
 * remained). The file names the holder (pid, host, since, a token). A lock whose process is no
 * longer running on this machine is stale and taken over; one from another host is never
 * assumed stale. Released by release(), or when the process exits.
 */
export class SessionLock {
  private released = false;

  private constructor(
    readonly file: string,
    readonly sessionId: string,
    private readonly token: string,
  ) {}

  /** Takes the lock of `sessionId`, or throws an AgentSessionError naming the session and its holder. */
  static async acquire(agentDirectory: string, sessionId: string): Promise<SessionLock> {
    await mkdir(sessionsDirectory(agentDirectory), { recursive: true, mode: 0o700 });
    const file = sessionLockPath(agentDirectory, sessionId);
    const token = randomUUID();
    const holder: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), token };
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await writeFile(file, `${JSON.stringify(holder)}\n`, { flag: 'wx', mode: 0o600 });
        installExitHook();
        held.set(file, token);
        return new SessionLock(file, sessionId, token);
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
      }
      const reading = await readLock(file);
      if (reading.kind === 'none') continue;
      if (reading.kind === 'holder') {
        const reason = liveHolder(reading.holder);
        if (reason) {
          throw new AgentSessionError(
            `session "${sessionId}" is open in another chat: ${reason}. Two chats on one session would overwrite each other's turns; end the other chat first. If no such chat is running, delete ${file}`,
          );
        }
      }
      const staleToken = reading.kind === 'holder' ? reading.holder.token : undefined;
      await takeOverStaleLock(file, async (moved) => {
        const found = await readLock(moved);
        return found.kind !== 'holder' || found.holder.token === staleToken;
      });
    }
    throw new AgentSessionError(
      `session "${sessionId}" could not be locked: ${file} kept changing (other chats are starting on it)`,
    );
  }

  /**
   * Whether this lock is still this holder's. Undefined when it is; otherwise what happened to
   * it (deleted, or taken by another process): the session must not be saved over then.
   */
  async lost(): Promise<string | undefined> {
    const reading = await readLock(this.file);
    if (reading.kind === 'holder' && reading.holder.token === this.token) return undefined;
    if (reading.kind === 'holder')
      return `process ${reading.holder.pid}${reading.holder.host === hostname() ? '' : ` on ${reading.holder.host}`} took over its lock ${this.file}`;
    return `its lock ${this.file} was ${reading.kind === 'none' ? 'deleted' : 'overwritten'}`;
  }

  /** Removes the lock file, if it is still this holder's. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    try {
      if ((await this.lost()) === undefined) await rm(this.file, { force: true });
    } finally {
      // Only now: a process that exits meanwhile still removes it.
      held.delete(this.file);
    }
  }
}
