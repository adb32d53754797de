import type { AgentBackend, AgentSession, ExecutionResult } from '../backends/contract/index.js';
import { AgentSessionError } from '../errors.js';

/** A conversation used by one attempt of a multi-turn case. */
export interface AttemptConversation {
  send(message: string): Promise<ExecutionResult>;
  release(): Promise<void>;
}

/** How attempts get an agent: a fresh process each (`process`) or a reused, cleared one (`session`). */
export interface AttemptRunner {
  runSingle(
    message: string,
    options: { signal: AbortSignal; workingDirectory?: string },
  ): Promise<ExecutionResult>;
  openConversation(options: { signal: AbortSignal; workingDirectory?: string }): Promise<AttemptConversation>;
  close(): Promise<void>;
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
      const session = await backend.createSession(
        options.workingDirectory ? { workingDirectory: options.workingDirectory } : {},
      );
      return {
        send: (message) =>
          sendOrAbort(
            () => session.send(message),
            options.signal,
            () => session.close(),
          ),
        release: () => session.close(),
      };
    },
    close: async () => {},
  };
}

/**
 * Session isolation: sessions are reused across cases; before each case `reset()` starts a new
 * conversation (no history) in the same session. Faster on the Claude backend (no process start;
 * a `/clear` in the same CLI process), but there the first request of a case carries a short
 * "local command" caveat block, and stateful MCP servers are shared by the cases of one session.
 */
export function sessionIsolation(backend: AgentBackend): AttemptRunner {
  const idle: AgentSession[] = [];
  const all = new Set<AgentSession>();
  const acquire = async (): Promise<AgentSession> => {
    const reused = idle.pop();
    if (reused) {
      await reused.reset();
      return reused;
    }
    const session = await backend.createSession();
    all.add(session);
    return session;
  };
  const release = (session: AgentSession, healthy: boolean) => {
    if (healthy) idle.push(session);
    else {
      all.delete(session);
      void session.close();
    }
  };
  const conversation = async (signal: AbortSignal): Promise<AttemptConversation> => {
    const session = await acquire();
    let healthy = true;
    return {
      async send(message) {
        try {
          return await sendOrAbort(
            () => session.send(message),
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
      const chat = await conversation(options.signal);
      try {
        return await chat.send(message);
      } finally {
        await chat.release();
      }
    },
    openConversation: (options) => conversation(options.signal),
    async close() {
      await Promise.all([...all].map((session) => session.close()));
    },
  };
}
