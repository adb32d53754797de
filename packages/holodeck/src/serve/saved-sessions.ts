import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * What `serve.sessions_dir` keeps of a served session, one file per session (mode 0600), so
 * another instance can resume it after the instance that held it let it go (shut down, or the
 * session idled past its TTL). Beside it, `<id>.state/` holds the backend's saved state of the
 * conversation (`AgentBackend.exportSession`: the AI SDK's session file, the Claude CLI's
 * transcript), which the resuming instance imports before `createSession({ resume })`: the
 * instances share nothing but this folder.
 */
export const SavedSessionSchema = z.strictObject({
  schemaVersion: z.literal(1),
  id: z.string(),
  owner: z.string(),
  /** The instance that holds it while `live`. */
  instance: z.string(),
  live: z.boolean(),
  /** The backend's session id (undefined until the first turn started). */
  backendSessionId: z.string().optional(),
  transcript: z.array(
    z.strictObject({ id: z.string(), role: z.enum(['user', 'assistant']), content: z.string() }),
  ),
  updatedAt: z.string(),
});
/** A saved served session. */
export type SavedSession = z.infer<typeof SavedSessionSchema>;

/** The folder of saved sessions. */
export class SavedSessions {
  constructor(readonly directory: string) {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
  }

  private file(id: string): string {
    // Ids are `<instance>.<hex>`: nothing in them climbs out of the folder.
    if (!/^[a-z0-9-]+\.[0-9a-f]{32}$/.test(id)) throw new Error(`not a session id: ${id}`);
    return path.join(this.directory, `${id}.json`);
  }

  /** The saved session, or undefined (none, or not a session file). */
  read(id: string): SavedSession | undefined {
    try {
      const parsed = SavedSessionSchema.safeParse(JSON.parse(readFileSync(this.file(id), 'utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** Writes it atomically (a reader never sees half a file). */
  write(session: Omit<SavedSession, 'schemaVersion' | 'updatedAt'>): void {
    const file = this.file(session.id);
    const temporary = `${file}.${process.pid}.tmp`;
    const saved: SavedSession = { schemaVersion: 1, ...session, updatedAt: new Date().toISOString() };
    writeFileSync(temporary, `${JSON.stringify(saved)}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  }

  /** The folder of the backend's saved state of session `id`. */
  stateDirectory(id: string): string {
    return this.file(id).replace(/\.json$/, '.state');
  }

  remove(id: string): void {
    rmSync(this.file(id), { force: true });
    rmSync(this.stateDirectory(id), { recursive: true, force: true });
  }

  /**
   * Claims a released session for this instance; false when another instance claimed it first
   * (the claim file is created exclusively) or it is live.
   */
  claim(id: string): boolean {
    const claim = `${this.file(id)}.claim`;
    try {
      closeSync(openSync(claim, 'wx', 0o600));
      return true;
    } catch {
      return false;
    }
  }

  release(id: string): void {
    rmSync(`${this.file(id)}.claim`, { force: true });
  }
}
