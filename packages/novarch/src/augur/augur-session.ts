import { AsyncLocalStorage } from 'node:async_hooks';
import { ADOPT_DEPLOYMENT_WINDOW, type NovarchEngine } from '../engine/novarch-engine.js';
import { NovarchError } from '../errors.js';
import type { SessionRecord, SessionScope } from '../model/records.js';

/** The governed session a tool call belongs to, reachable from any tool handler. */
export interface ActiveSession {
  engine: NovarchEngine;
  record: SessionRecord;
}

const active = new AsyncLocalStorage<ActiveSession>();
let defaultEngine: NovarchEngine | undefined;

export interface AugurSessionOptions extends SessionScope {
  /** Longest hold wait this session accepts (seconds), or ADOPT_DEPLOYMENT_WINDOW. */
  maxHoldS?: number | typeof ADOPT_DEPLOYMENT_WINDOW;
  /** The engine; defaults to the one given to `augur.configure`. */
  engine?: NovarchEngine;
}

/**
 * Runs `fn` inside a governed session (sync or async; the result is returned as a promise).
 * The hold wait is negotiated at entry against the deployment's hold window.
 */
async function session<T>(options: AugurSessionOptions, fn: () => T | Promise<T>): Promise<T> {
  const engine = options.engine ?? defaultEngine;
  if (!engine)
    throw new NovarchError(
      'no Novarch engine: call augur.configure({ engine }) or pass engine to augur.session',
    );
  const record = await engine.openSession(
    { tenantId: options.tenantId, teamId: options.teamId, agentId: options.agentId },
    options.maxHoldS,
  );
  return active.run({ engine, record }, fn);
}

/** Entry points of the decorator API. */
export const augur = {
  ADOPT_DEPLOYMENT_WINDOW,
  /** Sets the engine sessions use when they name none. */
  configure(options: { engine: NovarchEngine }): void {
    defaultEngine = options.engine;
  },
  session,
  /** The session of the current async context, if any. */
  current(): ActiveSession | undefined {
    return active.getStore();
  },
};
