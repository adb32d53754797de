import os from 'node:os';
import path from 'node:path';
import { JUDGE_PROVIDERS, type JudgeProvider } from 'judge-client';
import { z } from 'zod';
import { errorMessage } from '../support.js';
import {
  type NovarchServerConfig,
  NovarchServerConfigSchema,
  toServerConfig,
} from './novarch-server-config.js';

export type {
  NovarchServerConfig,
  NovarchTenantConfig,
  NovarchWebhookConfig,
} from './novarch-server-config.js';

/** Seconds an operator may take on a hold unless the deployment says otherwise. */
export const DEFAULT_HOLD_WINDOW_SECONDS = 300;
/** Seconds `novarch serve` waits on shutdown for the writes being judged, unless told otherwise. */
export const DEFAULT_DRAIN_TIMEOUT_SECONDS = 30;
/** Where the embedded store lives unless the deployment says otherwise. */
export const DEFAULT_STORE_PATH = '~/.novarch/novarch.db';

/** A deployment's Novarch configuration, with paths made absolute. */
export interface NovarchConfig {
  /** The file it was loaded from, when it came from one. */
  file?: string;
  /** The deployment's hold window: the longest a session may wait for an operator. */
  holdWindowSeconds: number;
  /** The LLM judge for rules without a condition; without it such rules hold. */
  judge?: NovarchJudgeConfig;
  store: NovarchStoreConfig;
  /** Absolute paths of the teams' rules files. */
  rules: string[];
  /** `novarch serve`'s settings (`server:`), when the file has them. */
  server?: NovarchServerConfig;
}

/**
 * Where the embedded store is and what it keeps (`store:`). Everything but `path` is an option of
 * `openSqliteStore`, so the section can be passed to it as is: `openSqliteStore(store.path, store)`.
 */
export interface NovarchStoreConfig {
  path: string;
  /** Regular expressions (JavaScript syntax) whose matches are stored as `[redacted]`. */
  redact?: string[];
  /** Use only `redact`, not the built-in patterns for API keys and tokens. */
  replaceDefaultRedactions?: boolean;
  /** The most a stored tool input or output may take, in bytes of JSON (default 65536). */
  maxStoredBytes?: number;
}

/** The smallest `max_stored_bytes`: a truncated value keeps a preview of 1024 characters. */
const MIN_STORED_BYTES = 1_024;

/**
 * The deployment's LLM judge: which model, on which provider, where. Keys come from the
 * environment (ANTHROPIC_API_KEY, OPENAI_API_KEY, AZURE_OPENAI_API_KEY), never from the file.
 * The field names are those of ModelLlmJudgeOptions, so the section can be passed to it as is.
 */
export interface NovarchJudgeConfig {
  provider: JudgeProvider;
  /** Required for every provider but anthropic (whose default is claude-sonnet-4-6). */
  model?: string;
  /** Base URL; required for azure_openai. */
  endpoint?: string;
  /** azure_openai only. */
  apiVersion?: string;
  /** azure_openai only; default the model. */
  deployment?: string;
  /** openai only. */
  organization?: string;
}

const nonEmpty = z.string().trim().min(1);

/** Keys only one provider reads: given for another, they are refused rather than ignored. */
const PROVIDER_ONLY_KEYS: ReadonlyArray<
  readonly ['api_version' | 'deployment' | 'organization', JudgeProvider]
> = [
  ['api_version', 'azure_openai'],
  ['deployment', 'azure_openai'],
  ['organization', 'openai'],
];

/** The `judge:` section (snake_case). */
export const NovarchJudgeConfigSchema = z
  .strictObject({
    provider: z.enum(JUDGE_PROVIDERS).default('anthropic'),
    model: nonEmpty.optional(),
    endpoint: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
    api_version: nonEmpty.optional(),
    deployment: nonEmpty.optional(),
    organization: nonEmpty.optional(),
  })
  .superRefine((judge, context) => {
    if (judge.provider !== 'anthropic' && judge.model === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['model'],
        message: `missing required key "model" for provider ${judge.provider}`,
      });
    }
    if (judge.provider === 'azure_openai' && judge.endpoint === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['endpoint'],
        message:
          'missing required key "endpoint" for provider azure_openai (e.g. https://<your-resource>.openai.azure.com)',
      });
    }
    for (const [key, provider] of PROVIDER_ONLY_KEYS) {
      if (judge[key] !== undefined && judge.provider !== provider) {
        context.addIssue({
          code: 'custom',
          path: [key],
          message: `"${key}" is only read for provider ${provider}, not ${judge.provider}`,
        });
      }
    }
  });

/** The YAML shape of the configuration file (snake_case, strict: unknown keys are errors). */
export const NovarchConfigSchema = z.strictObject({
  hold_window_seconds: z.int().min(1).default(DEFAULT_HOLD_WINDOW_SECONDS),
  judge: NovarchJudgeConfigSchema.optional(),
  store: z
    .strictObject({
      path: z.string().trim().min(1).default(DEFAULT_STORE_PATH),
      redact: z.array(z.string().min(1).superRefine(checkPattern)).optional(),
      replace_default_redactions: z.boolean().optional(),
      max_stored_bytes: z.int().min(MIN_STORED_BYTES).optional(),
    })
    .default({ path: DEFAULT_STORE_PATH }),
  rules: z.array(z.string().trim().min(1)).default([]),
  server: NovarchServerConfigSchema.optional(),
});

/** A redaction pattern must compile: it runs on every stored tool input and output. */
function checkPattern(pattern: string, context: z.RefinementCtx): void {
  try {
    new RegExp(pattern, 'g');
  } catch (error) {
    const reason = errorMessage(error);
    context.addIssue({ code: 'custom', message: `not a valid regular expression (${reason})` });
  }
}

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
    ...(data.judge === undefined ? {} : { judge: toJudgeConfig(data.judge) }),
    store: toStoreConfig(data.store, resolveUserPath(data.store.path, directory, homeDirectory)),
    rules: data.rules.map((rulesFile) => resolveUserPath(rulesFile, directory, homeDirectory)),
    ...(data.server === undefined
      ? {}
      : { server: toServerConfig(data.server, (value) => resolveUserPath(value, directory, homeDirectory)) }),
  };
}

function toStoreConfig(
  store: z.output<typeof NovarchConfigSchema>['store'],
  file: string,
): NovarchStoreConfig {
  return {
    path: file,
    ...(store.redact === undefined ? {} : { redact: store.redact }),
    ...(store.replace_default_redactions === undefined
      ? {}
      : { replaceDefaultRedactions: store.replace_default_redactions }),
    ...(store.max_stored_bytes === undefined ? {} : { maxStoredBytes: store.max_stored_bytes }),
  };
}

function toJudgeConfig(judge: z.output<typeof NovarchJudgeConfigSchema>): NovarchJudgeConfig {
  return {
    provider: judge.provider,
    ...(judge.model === undefined ? {} : { model: judge.model }),
    ...(judge.endpoint === undefined ? {} : { endpoint: judge.endpoint }),
    ...(judge.api_version === undefined ? {} : { apiVersion: judge.api_version }),
    ...(judge.deployment === undefined ? {} : { deployment: judge.deployment }),
    ...(judge.organization === undefined ? {} : { organization: judge.organization }),
  };
}
