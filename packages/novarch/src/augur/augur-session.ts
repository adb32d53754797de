import type { GovernanceEngine } from '../engine/governance-engine.js';
import { ADOPT_DEPLOYMENT_WINDOW } from '../engine/novarch-engine.js';
import type { SessionScope } from '../model/records.js';
import { type ActiveSession, currentSession, runInSession } from '../session/active-session.js';
import { chooseEngine, configureEngine } from './choose-engine.js';

export interface AugurSessionOptions extends SessionScope {
  /** Longest hold wait this session accepts (seconds), or ADOPT_DEPLOYMENT_WINDOW. */
  maxHoldS?: number | typeof ADOPT_DEPLOYMENT_WINDOW;
  /**
   * The engine; default the one given to `augur.configure`, else a remote engine on
   * `$NOVARCH_SERVER` (key `$NOVARCH_API_KEY`) when that is set, else the embedded default: the store
   * at `$NOVARCH_STORE` or `.novarch/novarch.db`, the rules and settings of `novarch.yaml` or
   * `$NOVARCH_CONFIG` when present (without rules, every write is held for an operator).
   */
  engine?: GovernanceEngine;
}

/**
 * Runs `fn` inside a governed session (sync or async; the result is returned as a promise).
 * The hold wait is negotiated at entry against the deployment's hold window. Without an engine
 * (here or from `augur.configure`) the session runs on the embedded default.
 */
async function session<T>(options: AugurSessionOptions, fn: () => T | Promise<T>): Promise<T> {
  const engine = await chooseEngine(options.engine);
  const record = await engine.openSession(
    { tenantId: options.tenantId, teamId: options.teamId, agentId: options.agentId },
    options.maxHoldS,
  );
  return runInSession({ engine, record }, fn);
}

/** Entry points of the decorator API. */
export const augur = {
  ADOPT_DEPLOYMENT_WINDOW,
  /** Sets the engine sessions use when they name none. */
  configure(options: { engine: GovernanceEngine }): void {
    configureEngine(options.engine);
  },
  session,
  /** The session of the current async context, if any. */
  current(): ActiveSession | undefined {
    return currentSession();
  },
};
