import type { GovernanceEngine } from '../engine/governance-engine.js';
import { remoteEngineFromEnv } from '../remote/remote-engine.js';
import { type EmbeddedEngine, openEmbeddedEngine, resetEmbeddedWarnings } from './open-embedded-engine.js';

let configuredEngine: GovernanceEngine | undefined;
/** The embedded default, opened by the first session that needs it and shared by the later ones. */
let embedded: Promise<EmbeddedEngine> | undefined;
let fromEnvironment: { key: string; engine: GovernanceEngine } | undefined;

/** Sets the engine sessions use when they name none (`augur.configure`). */
export function configureEngine(engine: GovernanceEngine): void {
  configuredEngine = engine;
}

/**
 * The engine of a session that names none: the configured one, else a remote engine on
 * `$NOVARCH_SERVER` (key `$NOVARCH_API_KEY`) when that is set, else the embedded default.
 */
export async function chooseEngine(given?: GovernanceEngine): Promise<GovernanceEngine> {
  return given ?? configuredEngine ?? serverEngine() ?? (await embeddedEngine()).engine;
}

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
