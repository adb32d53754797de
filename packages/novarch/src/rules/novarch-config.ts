import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/** Seconds an operator may take on a hold unless the deployment says otherwise. */
export const DEFAULT_HOLD_WINDOW_SECONDS = 300;
/** Where the embedded store lives unless the deployment says otherwise. */
export const DEFAULT_STORE_PATH = '~/.novarch/novarch.db';

/** A deployment's Novarch configuration, with paths made absolute. */
export interface NovarchConfig {
  /** The file it was loaded from, when it came from one. */
  file?: string;
  /** The deployment's hold window: the longest a session may wait for an operator. */
  holdWindowSeconds: number;
  /** The LLM judge for rules without a condition; without it such rules hold. */
  judge?: { provider: 'anthropic'; model?: string };
  store: { path: string };
  /** Absolute paths of the teams' rules files. */
  rules: string[];
}

/** The YAML shape of the configuration file (snake_case, strict: unknown keys are errors). */
export const NovarchConfigSchema = z.strictObject({
  hold_window_seconds: z.int().min(1).default(DEFAULT_HOLD_WINDOW_SECONDS),
  judge: z
    .strictObject({ provider: z.enum(['anthropic']), model: z.string().trim().min(1).optional() })
    .optional(),
  store: z
    .strictObject({ path: z.string().trim().min(1).default(DEFAULT_STORE_PATH) })
    .default({ path: DEFAULT_STORE_PATH }),
  rules: z.array(z.string().trim().min(1)).default([]),
});

/** `~` and `~/x` are the home directory; relative paths are relative to `baseDirectory`. */
export function resolveUserPath(value: string, baseDirectory: string, homeDirectory = os.homedir()): string {
  if (value === '~') return homeDirectory;
  if (value.startsWith('~/')) return path.join(homeDirectory, value.slice(2));
  return path.resolve(baseDirectory, value);
}

/** The configuration used when a deployment has no configuration file. */
export function defaultNovarchConfig(homeDirectory = os.homedir()): NovarchConfig {
  return {
    holdWindowSeconds: DEFAULT_HOLD_WINDOW_SECONDS,
    store: { path: resolveUserPath(DEFAULT_STORE_PATH, homeDirectory, homeDirectory) },
    rules: [],
  };
}

/** Converts a validated configuration file to the typed NovarchConfig. */
export function toNovarchConfig(
  data: z.output<typeof NovarchConfigSchema>,
  file: string,
  homeDirectory = os.homedir(),
): NovarchConfig {
  const directory = path.dirname(file);
  return {
    file,
    holdWindowSeconds: data.hold_window_seconds,
    ...(data.judge === undefined
      ? {}
      : {
          judge: {
            provider: data.judge.provider,
            ...(data.judge.model === undefined ? {} : { model: data.judge.model }),
          },
        }),
    store: { path: resolveUserPath(data.store.path, directory, homeDirectory) },
    rules: data.rules.map((rulesFile) => resolveUserPath(rulesFile, directory, homeDirectory)),
  };
}
