import { importUserModule } from './import-module.js';

/** How long a user module may take to load, unless HOLODECK_MODULE_LOAD_TIMEOUT (seconds) says. */
export const DEFAULT_MODULE_LOAD_TIMEOUT_S = 30;

interface PendingLoad {
  file: string;
  fail(error: Error): void;
}

const pending = new Set<PendingLoad>();
let watchingDrain = false;

/** The user modules still loading: what main.ts names when the process ends while they load. */
export function userModulesLoading(): string[] {
  return [...pending].map((load) => load.file);
}

function loadTimeoutSeconds(env: NodeJS.ProcessEnv): number {
  const given = Number(env.HOLODECK_MODULE_LOAD_TIMEOUT);
  return Number.isFinite(given) && given > 0 ? given : DEFAULT_MODULE_LOAD_TIMEOUT_S;
}

/**
 * `beforeExit` is emitted when the event loop has drained: a load still pending then is a
 * top-level `await` nothing can settle any more (Node would end the process with code 0, the
 * command never finishing). Every pending load fails instead, and the command reports it.
 */
function watchDrain(): void {
  if (watchingDrain) return;
  watchingDrain = true;
  process.on('beforeExit', () => {
    for (const load of [...pending])
      load.fail(
        new Error(
          'its top-level await never settles (nothing is left running that could settle it); the module must finish loading on its own',
        ),
      );
  });
}

/**
 * Imports a user's module (a function tool, a `code` grader) with a time limit: a module whose
 * top-level `await` never settles fails with an error saying so, whether something keeps it alive
 * (a timer: the limit) or nothing does (the event loop drains). The caller names the module and
 * the agent.yaml field in its message.
 */
export async function loadUserModule(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Record<string, unknown>> {
  watchDrain();
  const seconds = loadTimeoutSeconds(env);
  let load: PendingLoad | undefined;
  let timer: NodeJS.Timeout | undefined;
  const stopped = new Promise<never>((_, reject) => {
    load = { file, fail: reject };
    pending.add(load);
    // Not ref'd: an import nothing keeps alive must let the loop drain (then beforeExit fails it).
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `it did not finish loading within ${seconds} s (a top-level await still waiting); set HOLODECK_MODULE_LOAD_TIMEOUT (seconds) if it needs longer`,
          ),
        ),
      seconds * 1000,
    );
    timer.unref();
  });
  try {
    return await Promise.race([importUserModule(file), stopped]);
  } finally {
    clearTimeout(timer);
    if (load) pending.delete(load);
  }
}
