import { AsyncLocalStorage } from 'node:async_hooks';
import type { GovernanceEngine } from '../engine/governance-engine.js';
import { ADOPT_DEPLOYMENT_WINDOW } from '../engine/novarch-engine.js';
import type { SessionRecord, SessionScope } from '../model/records.js';
import { remoteEngineFromEnv } from '../remote/remote-engine.js';
import { type EmbeddedEngine, openEmbeddedEngine, resetEmbeddedWarnings } from './open-embedded-engine.js';

/** The governed session a tool call belongs to, reachable from any tool handler. */
export interface ActiveSession {
  /** A local `NovarchEngine`, or a `remoteEngine` on a Novarch server. */
  engine: GovernanceEngine;
  record: SessionRecord;
}

const active = new AsyncLocalStorage<ActiveSession>();
let defaultEngine: GovernanceEngine | undefined;
/** The embedded default, opened by the first session that needs it and shared by the later ones. */
let embedded: Promise<EmbeddedEngine> | undefined;

/** The embedded default engine of this process (see `openEmbeddedEngine`). */
function embeddedEngine(): Promise<EmbeddedEngine> {
  if (embedded === undefined) {
    const opening = openEmbeddedEngine();
    embedded = opening;
    // A configuration that did not load is read again by the next session, once it is fixed.
    opening.catch(() => {
      if (embedded === opening) embedded = undefined;
    });
  }
  return embedded;
}

let fromEnvironment: { key: string; engine: GovernanceEngine } | undefined;

/** The remote engine of `$NOVARCH_SERVER` + `$NOVARCH_API_KEY`, when set (one per process). */
function serverEngine(): GovernanceEngine | undefined {
  const key = `${process.env.NOVARCH_SERVER ?? ''}\n${process.env.NOVARCH_API_KEY ?? ''}`;
  if (fromEnvironment?.key === key) return fromEnvironment.engine;
  const engine = remoteEngineFromEnv(process.env);
  fromEnvironment = engine === undefined ? undefined : { key, engine };
  return engine;
}

/** Closes and forgets the embedded default engine, so the next session opens it afresh (tests). */
export async function resetEmbeddedEngine(): Promise<void> {
  const current = embedded;
  embedded = undefined;
  resetEmbeddedWarnings();
  const opened = await current?.catch(() => undefined);
  await opened?.engine.store.close();
}

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
  const engine = options.engine ?? defaultEngine ?? serverEngine() ?? (await embeddedEngine()).engine;
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
  configure(options: { engine: GovernanceEngine }): void {
    defaultEngine = options.engine;
  },
  session,
  /** The session of the current async context, if any. */
  current(): ActiveSession | undefined {
    return active.getStore();
  },
};
