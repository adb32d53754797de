import type {
  AgentBackend,
  AgentSession,
  ExecutionResult,
  ProgressListener,
} from '../backends/contract/index.js';
import { AgentSessionError } from '../errors.js';
import type { RunTraffic } from '../tools/run-traffic.js';

/** A conversation used by one attempt of a multi-turn case. */
export interface AttemptConversation {
  send(message: string): Promise<ExecutionResult>;
  release(): Promise<void>;
}

/** What one attempt's runs are given: its signal, its folder, who watches its progress (limits:). */
export interface AttemptRunOptions {
  signal: AbortSignal;
  workingDirectory?: string;
  /** Told of each run's (each turn's) progress as it happens. */
  onProgress?: ProgressListener;
  /** A recorded attempt's traffic (process isolation only: recording refuses session isolation). */
  traffic?: RunTraffic;
}

/** How attempts get an agent: a fresh process each (`process`) or a reused, cleared one (`session`). */
export interface AttemptRunner {
  runSingle(message: string, options: AttemptRunOptions): Promise<ExecutionResult>;
  openConversation(options: AttemptRunOptions): Promise<AttemptConversation>;
  close(): Promise<void>;
}

/** The turn options of an attempt's session sends. */
function turnOptions(options: AttemptRunOptions) {
  return options.onProgress ? { onProgress: options.onProgress, signal: options.signal } : {};
}

function onAbort(signal: AbortSignal, close: () => Promise<void>): () => void {
  const listener = () => void close();
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}

async function sendOrAbort(
  send: () => Promise<ExecutionResult>,
  signal: AbortSignal,
  close: () => Promise<void>,
): Promise<ExecutionResult> {
  signal.throwIfAborted();
  const detach = onAbort(signal, close);
  try {
    return await send();
  } catch (error) {
    if (signal.aborted)
      throw new AgentSessionError(`the run was stopped: ${String(signal.reason?.message ?? signal.reason)}`);
    throw error;
  } finally {
    detach();
  }
}

/** Process isolation: every single-turn attempt is a fresh CLI session; a conversation one session. */
export function processIsolation(backend: AgentBackend): AttemptRunner {
  return {
    runSingle: (message, options) => backend.invokeOnce(message, undefined, options),
    async openConversation(options) {
      const session = await backend.createSession({
        ...(options.workingDirectory ? { workingDirectory: options.workingDirectory } : {}),
        ...(options.traffic ? { traffic: options.traffic } : {}),
      });
      return {
        send: (message) =>
          sendOrAbort(
            () => session.send(message, turnOptions(options)),
            options.signal,
            () => session.close(),
          ),
        release: () => session.close(),
      };
    },
    close: async () => {},
  };
}

/** A session waiting for its next attempt: cleared ahead (`ready` says whether that worked), or not yet. */
interface IdleSession {
  session: AgentSession;
  ready?: Promise<boolean>;
}

/**
 * Session isolation: sessions are reused across cases; each attempt gets a new conversation (no
 * history) in a reused session (`reset()`). Faster on the Claude backend (no process start;
 * a `/clear` in the same CLI process), but there the first request of a case carries a short
 * "local command" caveat block, and stateful MCP servers are shared by the cases of one session.
 *
 * A released session is cleared at once while attempts remain to start, so its reset overlaps the
 * grading of the attempt that just ended (a judge metric takes seconds) instead of delaying the
 * next one; once every attempt has started, none is cleared for nothing. `attempts` is how many
 * attempts the run will start (unknown: every released session is cleared ahead).
 */
export function sessionIsolation(backend: AgentBackend, plan: { attempts?: number } = {}): AttemptRunner {
  const idle: IdleSession[] = [];
  const all = new Set<AgentSession>();
  let started = 0;
  const attemptsToStart = () =>
    plan.attempts === undefined ? Number.POSITIVE_INFINITY : plan.attempts - started;
  const discard = (session: AgentSession) => {
    all.delete(session);
    void session.close();
  };
  const clear = (session: AgentSession) =>
    session.reset().then(
      () => true,
      () => false,
    );
  const acquire = async (): Promise<AgentSession> => {
    started += 1;
    for (let next = idle.shift(); next; next = idle.shift()) {
      if (await (next.ready ?? clear(next.session))) return next.session;
      discard(next.session);
    }
    const session = await backend.createSession();
    all.add(session);
    return session;
  };
  const release = (session: AgentSession, healthy: boolean) => {
    if (!healthy) return discard(session);
    // Cleared ahead only for an attempt still to start that no other idle session will take.
    idle.push(attemptsToStart() > idle.length ? { session, ready: clear(session) } : { session });
  };
  const conversation = async (options: AttemptRunOptions): Promise<AttemptConversation> => {
    const { signal } = options;
    const session = await acquire();
    let healthy = true;
    return {
      async send(message) {
        try {
          return await sendOrAbort(
            () => session.send(message, turnOptions(options)),
            signal,
            () => session.close(),
          );
        } catch (error) {
          healthy = false;
          throw error;
        }
      },
      release: async () => release(session, healthy),
    };
  };
  return {
    async runSingle(message, options) {
      const chat = await conversation(options);
      try {
        return await chat.send(message);
      } finally {
        await chat.release();
      }
    },
    openConversation: (options) => conversation(options),
    async close() {
      await Promise.all([...all].map((session) => session.close()));
    },
  };
}
