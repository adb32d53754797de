import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { AgentBackend, AgentSession } from '../backends/contract/index.js';
import type { ServeProtocol } from '../config/schema/serve-config-schema.js';
import { errorMessage } from '../support.js';
import { LiveTurn } from './live-turn.js';
import type { SavedSession, SavedSessions } from './saved-sessions.js';
import { ServeProblem } from './serve-problem.js';
import type { ObserveTurn } from './turn-observer.js';

/** A message of a served conversation, as kept for snapshots (AG-UI, GET of a session). */
export interface TranscriptMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
}

/** One conversation: a backend session, the key that owns it, and its turn in flight. */
export interface ServedSession {
  readonly id: string;
  /** The API key (its id) that created it; `anonymous` when the server has no keys. */
  readonly owner: string;
  readonly backendSession: AgentSession;
  readonly createdAt: number;
  lastActive: number;
  turn: LiveTurn | undefined;
  readonly transcript: TranscriptMessage[];
}

/** Limits of the registry (resolved by `resolveServeSettings`). */
export interface RegistryLimits {
  maxSessions: number;
  maxConcurrentTurns: number;
  sessionTtlMs: number;
  turnTimeoutMs: number;
}

/** Seconds a client over a cap should wait before trying again. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The live sessions of one `holodeck serve` instance. A session id names its instance
 * (`<instance>.<random>`) so a load balancer can route on it, and a request that reaches another
 * instance gets 421 naming the right one. A session belongs to the key that created it: to any
 * other key it does not exist (404).
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, ServedSession>();
  private readonly sweeper: NodeJS.Timeout;
  private closing = false;
  /** Sessions being created (counted against the cap before their backend session exists). */
  private reserved = 0;

  constructor(
    private readonly backend: AgentBackend,
    readonly instanceId: string,
    readonly limits: RegistryLimits,
    /** `serve.sessions_dir`: sessions saved for other instances to resume. */
    private readonly saved?: SavedSessions,
    /** Spans and metrics of each turn (OpenTelemetry), when they are on. */
    private readonly observeTurn?: ObserveTurn,
    /** Told when a session's state could not be saved for other instances. */
    private readonly warn: (message: string) => void = () => {},
  ) {
    this.sweeper = setInterval(
      () => void this.sweep(),
      Math.max(50, Math.min(30_000, limits.sessionTtlMs / 4)),
    );
    this.sweeper.unref();
  }

  /** Live sessions. */
  get size(): number {
    return this.sessions.size;
  }

  /** Turns in flight (parked ones included: their process is held). */
  get runningTurns(): number {
    let count = 0;
    for (const session of this.sessions.values()) if (session.turn && !session.turn.finished) count += 1;
    return count;
  }

  /** Starts a conversation for `owner`; 429 at the cap, 503 while shutting down. */
  async create(owner: string): Promise<ServedSession> {
    const id = `${this.instanceId}.${randomBytes(16).toString('hex')}`;
    const session = await this.open(id, owner, undefined, []);
    await this.save(session);
    return session;
  }

  /** A backend session (new, or resumed from its saved state) registered under `id`. */
  private async open(
    id: string,
    owner: string,
    resume: string | undefined,
    transcript: TranscriptMessage[],
  ): Promise<ServedSession> {
    if (this.closing)
      throw new ServeProblem(503, 'the server is shutting down: send the request to another instance');
    if (this.sessions.size + this.reserved >= this.limits.maxSessions)
      throw new ServeProblem(
        429,
        `${this.sessions.size} sessions are live, the most this server holds (serve.max_sessions): end one (DELETE /v1/sessions/{id}) or retry later`,
        { retryAfterSeconds: RETRY_AFTER_SECONDS },
      );
    // Reserved before the await: concurrent creations cannot pass the cap together.
    this.reserved += 1;
    try {
      const backendSession = await this.backend.createSession({
        approvals: 'ask',
        ...(resume ? { resume } : {}),
      });
      if (this.closing) {
        await backendSession.close();
        throw new ServeProblem(503, 'the server is shutting down: send the request to another instance');
      }
      const now = Date.now();
      const session: ServedSession = {
        id,
        owner,
        backendSession,
        createdAt: now,
        lastActive: now,
        turn: undefined,
        transcript,
      };
      this.sessions.set(id, session);
      return session;
    } finally {
      this.reserved -= 1;
    }
  }

  /**
   * Saves the session for other instances (with serve.sessions_dir); `live` while this one holds
   * it. The backend's state of the conversation is exported first, so an instance that sees the
   * session released finds the whole of it.
   */
  private async save(session: ServedSession, live = true): Promise<void> {
    if (!this.saved) return;
    const backendSessionId = session.backendSession.sessionId;
    if (backendSessionId)
      await this.backend
        .exportSession(backendSessionId, this.saved.stateDirectory(session.id))
        .catch((error: unknown) =>
          this.warn(
            `session "${session.id}" could not be saved to serve.sessions_dir for other instances to resume: ${errorMessage(error)}`,
          ),
        );
    this.saved.write({
      id: session.id,
      owner: session.owner,
      instance: this.instanceId,
      live,
      ...(backendSessionId ? { backendSessionId } : {}),
      transcript: session.transcript,
    });
  }

  /**
   * The session `id` of `owner`. Not live here: with serve.sessions_dir, a session its instance
   * let go (shut down, or idle past the TTL) is resumed here from its saved state; one another
   * instance still holds is a 421 naming it; anything else is a 404.
   */
  async get(id: string, owner: string): Promise<ServedSession> {
    const live = this.sessions.get(id);
    if (live && live.owner === owner) return live;
    const saved = live ? undefined : this.saved?.read(id);
    if (saved && saved.owner === owner && !saved.live && this.saved?.claim(id)) {
      try {
        const resumed = await this.resume(id, owner, saved, this.saved.stateDirectory(id));
        await this.save(resumed);
        return resumed;
      } finally {
        this.saved?.release(id);
      }
    }
    const instance = saved?.live
      ? saved.instance
      : id.includes('.')
        ? id.slice(0, id.indexOf('.'))
        : undefined;
    if (
      !live &&
      instance !== undefined &&
      instance !== this.instanceId &&
      /^[a-z0-9-]+$/.test(instance) &&
      (saved === undefined || saved.owner === owner)
    )
      throw new ServeProblem(
        421,
        `session "${id}" is held by instance "${instance}", not this one ("${this.instanceId}"): send the request to that instance (route on the session id's prefix)`,
        { instance },
      );
    // Another key's session is answered exactly like a missing one: nothing leaks.
    throw new ServeProblem(
      404,
      `no session "${id}" for this API key: it never existed, ended (idle past serve.session_ttl, or deleted), or belongs to another key; create one with POST /v1/sessions`,
    );
  }

  /**
   * Resumes a saved session here: the conversation as the instance that let it go exported it (it
   * may be another machine), else this machine's own copy. 410 when neither can be resumed.
   */
  private async resume(
    id: string,
    owner: string,
    saved: SavedSession,
    stateDirectory: string,
  ): Promise<ServedSession> {
    let imported = false;
    try {
      if (saved.backendSessionId)
        imported = await this.backend.importSession(saved.backendSessionId, stateDirectory);
      return await this.open(id, owner, saved.backendSessionId, saved.transcript);
    } catch (error) {
      if (error instanceof ServeProblem) throw error;
      const why = imported
        ? (errorMessage(error).split('\n')[0] ?? '')
        : `serve.sessions_dir has no ${path.basename(stateDirectory)}/ (its instance may have ended before saving it), and this machine has no copy`;
      throw new ServeProblem(
        410,
        `session "${id}" was saved by instance "${saved.instance}", but its conversation cannot be resumed here: ${why}; start a new session with POST /v1/sessions`,
      );
    }
  }

  /**
   * Starts a turn asked for through `protocol`: 409 while the session has one, 429 at the cap on
   * concurrent turns.
   */
  startTurn(session: ServedSession, message: string, protocol: ServeProtocol): LiveTurn {
    if (session.turn && !session.turn.finished)
      throw new ServeProblem(
        409,
        session.turn.parked
          ? `session "${session.id}" has a turn waiting for an answer (approval or Novarch hold): answer or resume it first`
          : `session "${session.id}" is already running a turn: one turn at a time; wait for it to finish`,
      );
    if (this.runningTurns >= this.limits.maxConcurrentTurns)
      throw new ServeProblem(
        429,
        `${this.runningTurns} turns are running, the most this server runs at once (serve.max_concurrent_turns): retry later`,
        { retryAfterSeconds: RETRY_AFTER_SECONDS },
      );
    const turn = new LiveTurn(session.backendSession, message, {
      timeoutMs: this.limits.turnTimeoutMs,
      ...(this.observeTurn
        ? { observer: this.observeTurn({ sessionId: session.id, message, protocol }) }
        : {}),
    });
    session.turn = turn;
    session.lastActive = Date.now();
    session.transcript.push({ id: `msg-${session.transcript.length + 1}`, role: 'user', content: message });
    void turn.done.then(async () => {
      session.lastActive = Date.now();
      const response = turn.result?.response;
      if (response)
        session.transcript.push({
          id: `msg-${session.transcript.length + 1}`,
          role: 'assistant',
          content: response,
        });
      if (this.sessions.get(session.id) === session) await this.save(session);
    });
    return turn;
  }

  /** Ends one session for good (its turn is interrupted, its process released, its saved record removed). */
  async delete(session: ServedSession): Promise<void> {
    await this.release(session);
    this.saved?.remove(session.id);
  }

  /**
   * Lets a session go (TTL, shutdown): its process ends; with serve.sessions_dir its saved record
   * stays, marked not live, so this or another instance can resume it.
   */
  private async release(session: ServedSession): Promise<void> {
    this.sessions.delete(session.id);
    await session.turn?.interrupt();
    await session.backendSession.close();
    await this.save(session, false);
  }

  /** Ends sessions idle for longer than the TTL (a parked turn counts as idle). */
  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const session of [...this.sessions.values()]) {
      const busy = session.turn && !session.turn.finished && !session.turn.parked;
      if (!busy && now - session.lastActive > this.limits.sessionTtlMs) await this.release(session);
    }
  }

  /**
   * Shutdown: refuses new sessions, lets running turns finish for `drainMs`, then interrupts
   * the rest and closes every session (every agent process ends).
   */
  async drain(drainMs: number): Promise<void> {
    this.closing = true;
    clearInterval(this.sweeper);
    const live = () => [...this.sessions.values()];
    const inFlight = () =>
      live()
        .map((session) => session.turn)
        .filter((turn): turn is LiveTurn => turn !== undefined && !turn.finished);
    const within = (promise: Promise<unknown>, ms: number) =>
      Promise.race([promise, new Promise((resolve) => setTimeout(resolve, ms).unref())]);
    await within(
      Promise.all(
        inFlight()
          .filter((turn) => !turn.parked)
          .map((turn) => turn.done),
      ),
      drainMs,
    );
    // What is left is interrupted: each turn ends with its `finish`, which its reader still sends.
    const left = inFlight();
    await Promise.all(left.map((turn) => turn.interrupt()));
    await within(Promise.all(left.map((turn) => turn.done)), 5_000);
    await Promise.all(live().map((session) => this.release(session)));
  }
}
