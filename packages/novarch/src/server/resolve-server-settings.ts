import { existsSync } from 'node:fs';
import path from 'node:path';
import { OperatorUsageError } from '../errors.js';
import type { WebhookTarget } from '../notify/webhook-target.js';
import { checkPublicUrl } from '../rules/check-public-url.js';
import { loadNovarchConfig } from '../rules/load-novarch-config.js';
import {
  DEFAULT_DRAIN_TIMEOUT_SECONDS,
  DEFAULT_HOLD_WINDOW_SECONDS,
  defaultNovarchConfig,
  type NovarchConfig,
  resolveUserPath,
} from '../rules/novarch-config.js';
import type { StoredValueOptions } from '../store/stored-value-policy.js';
import { resolveSlackSettings, type SlackSettings } from './resolve-slack-settings.js';
import { resolveWebhookTargets } from './resolve-webhook-targets.js';
import type { ServedTenant } from './server-services.js';

export { WEBHOOK_SECRET_ENV_PREFIX, webhookSecretVariable } from '../notify/webhook-target.js';

/** Where `novarch serve` listens unless told otherwise: this machine only. */
export const DEFAULT_LISTEN = '127.0.0.1:7311';

/** The environment variables `novarch serve` (and `keys`, `operators`) read. */
export const SERVER_ENV = {
  listen: 'NOVARCH_LISTEN',
  storeUrl: 'NOVARCH_STORE_URL',
  holdWindow: 'NOVARCH_HOLD_WINDOW_SECONDS',
  config: 'NOVARCH_CONFIG',
  publicUrl: 'NOVARCH_PUBLIC_URL',
  webhooks: 'NOVARCH_WEBHOOKS',
  drainTimeout: 'NOVARCH_DRAIN_TIMEOUT_SECONDS',
} as const;

/** The flags that choose the server's settings (the store and identity commands take these too). */
export interface ServerFlags {
  store?: string | undefined;
  config?: string | undefined;
  listen?: string | undefined;
  holdWindow?: string | undefined;
}

/** The flags only `novarch serve` takes. */
export interface ServeFlags extends ServerFlags {
  publicUrl?: string | undefined;
  /** `TENANT=URL`, once per tenant. */
  webhook?: readonly string[] | undefined;
  /** Seconds. */
  drainTimeout?: string | undefined;
}

export interface ServerEnvironment {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  homeDirectory: string;
}

/** The server's store and address, and where they came from (for messages). */
export interface ServerSettings {
  host: string;
  port: number;
  /** Where the listen address came from (`--listen`, `$NOVARCH_LISTEN`, the file, the default). */
  listenSource: string;
  storeUrl: string;
  storeSource: string;
  storeOptions: StoredValueOptions;
  holdWindowSeconds: number;
  config?: NovarchConfig;
  tenants?: Record<string, ServedTenant>;
}

/** Everything `novarch serve` runs with. */
export interface ServeSettings extends ServerSettings {
  /** The address operators reach the server at (webhooks link to its console). */
  publicUrl?: string;
  /** Each tenant's webhook target (its secret from the environment). */
  webhooks?: Record<string, WebhookTarget>;
  /** Where the webhooks came from: `--webhook`, `$NOVARCH_WEBHOOKS` or `server.tenants in FILE`. */
  webhookSource?: string;
  /** How long a shutdown waits for the writes being judged before it refuses them (ms). */
  drainTimeoutMs: number;
  /** Interactive approvals in Slack (`server.slack` and its two secrets); absent: off. */
  slack?: SlackSettings;
}

/**
 * Resolves the server's settings, each from the first that has it: the flag, the environment
 * variable, the configuration file (`--config`, else `$NOVARCH_CONFIG`, else `novarch.yaml` in
 * the working directory when there is one), the default.
 * - listen: `--listen` > `$NOVARCH_LISTEN` > `server.listen` > 127.0.0.1:7311
 * - store: `--store` (a URL, or a SQLite file) > `$NOVARCH_STORE_URL` > `server.store_url` >
 *   `sqlite:` + `store.path` (default ~/.novarch/novarch.db)
 * - hold window: `--hold-window` > `$NOVARCH_HOLD_WINDOW_SECONDS` > `hold_window_seconds` > 300
 */
export async function resolveServerSettings(
  flags: ServerFlags,
  environment: ServerEnvironment,
): Promise<ServerSettings> {
  const { env, cwd, homeDirectory } = environment;
  const configFlag = given(flags.config) ?? given(env[SERVER_ENV.config]);
  const localConfig = path.join(cwd, 'novarch.yaml');
  const configFile =
    configFlag !== undefined
      ? resolveUserPath(configFlag, cwd, homeDirectory)
      : existsSync(localConfig)
        ? localConfig
        : undefined;
  const config =
    configFile === undefined ? undefined : await loadNovarchConfig(configFile, { homeDirectory });
  const base = config ?? defaultNovarchConfig(homeDirectory);

  const listenFrom = pick([
    ['--listen', given(flags.listen)],
    [`$${SERVER_ENV.listen}`, given(env[SERVER_ENV.listen])],
    [`server.listen in ${configFile}`, config?.server?.listen],
  ]) ?? { source: 'the default', value: DEFAULT_LISTEN };
  const { host, port } = parseListen(listenFrom.value, listenFrom.source);

  const storeFrom = pick([
    ['--store', given(flags.store)],
    [`$${SERVER_ENV.storeUrl}`, given(env[SERVER_ENV.storeUrl])],
    [`server.store_url in ${configFile}`, config?.server?.storeUrl],
  ]) ?? {
    source: config === undefined ? 'the default' : `store.path in ${configFile}`,
    value: `sqlite:${base.store.path}`,
  };
  // A bare path is a SQLite file, as `--store FILE` is for the operator commands.
  const storeUrl = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(storeFrom.value)
    ? storeFrom.value
    : `sqlite:${resolveUserPath(storeFrom.value, cwd, homeDirectory)}`;

  const windowFrom = pick([
    ['--hold-window', given(flags.holdWindow)],
    [`$${SERVER_ENV.holdWindow}`, given(env[SERVER_ENV.holdWindow])],
  ]);
  const holdWindowSeconds =
    windowFrom === undefined
      ? (config?.holdWindowSeconds ?? DEFAULT_HOLD_WINDOW_SECONDS)
      : parseWholeSeconds(windowFrom.value, windowFrom.source, 'a hold window', DEFAULT_HOLD_WINDOW_SECONDS);

  const { path: _storePath, ...storeOptions } = base.store;
  const tenants = config?.server?.tenants;
  return {
    host,
    port,
    listenSource: listenFrom.source,
    storeUrl,
    storeSource: storeFrom.source,
    storeOptions,
    holdWindowSeconds,
    ...(config === undefined ? {} : { config }),
    ...(tenants === undefined
      ? {}
      : {
          tenants: Object.fromEntries(
            Object.entries(tenants).map(([id, tenant]): [string, ServedTenant] => [
              id,
              tenant.holdWindowSeconds === undefined ? {} : { holdWindowSeconds: tenant.holdWindowSeconds },
            ]),
          ),
        }),
  };
}

/**
 * `novarch serve`'s settings: `resolveServerSettings`'s, and, each from the first that has it:
 * - public URL: `--public-url` > `$NOVARCH_PUBLIC_URL` > `server.public_url` > none (the listen address)
 * - webhooks: `--webhook` (repeated) > `$NOVARCH_WEBHOOKS` > `server.tenants.<id>.webhook` > none;
 *   secrets from `$NOVARCH_WEBHOOK_SECRET_<TENANT>` only
 * - drain timeout: `--drain-timeout` > `$NOVARCH_DRAIN_TIMEOUT_SECONDS` > `server.drain_timeout_seconds` > 30
 */
export async function resolveServeSettings(
  flags: ServeFlags,
  environment: ServerEnvironment,
): Promise<ServeSettings> {
  const settings = await resolveServerSettings(flags, environment);
  const { env } = environment;
  const { config } = settings;
  const configFile = config?.file;

  const publicUrlFrom = pick([
    ['--public-url', given(flags.publicUrl)],
    [`$${SERVER_ENV.publicUrl}`, given(env[SERVER_ENV.publicUrl])],
    [`server.public_url in ${configFile}`, config?.server?.publicUrl],
  ]);
  let publicUrl: string | undefined;
  try {
    publicUrl = publicUrlFrom && checkPublicUrl(publicUrlFrom.value);
  } catch (error) {
    throw new OperatorUsageError(
      `${publicUrlFrom?.source}: ${error instanceof Error ? error.message : error}`,
    );
  }

  const webhooks = resolveWebhookTargets({
    flags: flags.webhook,
    env,
    envName: SERVER_ENV.webhooks,
    configFile,
    tenants: config?.server?.tenants,
  });
  if (
    webhooks !== undefined &&
    publicUrl === undefined &&
    (settings.host === '0.0.0.0' || settings.host === '::')
  )
    throw new OperatorUsageError(
      `webhooks link to the console, but ${settings.listenSource} listens on every interface (${settings.host.includes(':') ? `[${settings.host}]` : settings.host}:${settings.port}): give the address operators reach the server at with --public-url, $${SERVER_ENV.publicUrl} or server.public_url, e.g. https://novarch.example.com`,
    );

  const drainFrom = pick([
    ['--drain-timeout', given(flags.drainTimeout)],
    [`$${SERVER_ENV.drainTimeout}`, given(env[SERVER_ENV.drainTimeout])],
  ]);
  const drainTimeoutSeconds =
    drainFrom === undefined
      ? (config?.server?.drainTimeoutSeconds ?? DEFAULT_DRAIN_TIMEOUT_SECONDS)
      : parseWholeSeconds(
          drainFrom.value,
          drainFrom.source,
          'a drain timeout',
          DEFAULT_DRAIN_TIMEOUT_SECONDS,
        );

  const slack = resolveSlackSettings(config?.server?.slack, env, configFile);
  if (
    slack !== undefined &&
    publicUrl === undefined &&
    (settings.host === '0.0.0.0' || settings.host === '::')
  )
    throw new OperatorUsageError(
      `Slack's messages link to the console, but ${settings.listenSource} listens on every interface: give the address Slack and operators reach the server at with --public-url, $${SERVER_ENV.publicUrl} or server.public_url, e.g. https://novarch.example.com (Slack's request URL is then https://novarch.example.com/slack/interactions)`,
    );
  return {
    ...settings,
    ...(slack === undefined ? {} : { slack }),
    ...(publicUrl === undefined ? {} : { publicUrl }),
    ...(webhooks === undefined ? {} : { webhooks: webhooks.targets, webhookSource: webhooks.source }),
    drainTimeoutMs: drainTimeoutSeconds * 1000,
  };
}

/** A trimmed value, or undefined when empty. */
function given(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined;
}

function pick(candidates: [string, string | undefined][]): { source: string; value: string } | undefined {
  for (const [source, value] of candidates) if (value !== undefined) return { source, value };
  return undefined;
}

/** `HOST:PORT`, `[IPv6]:PORT`, `:PORT` (every interface) or `PORT` (this machine). */
export function parseListen(text: string, source: string): { host: string; port: number } {
  const match = /^(?:(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]*):)?([0-9]{1,5})$/.exec(text.trim());
  const port = match?.[2] === undefined ? Number.NaN : Number(match[2]);
  if (!match || !Number.isInteger(port) || port > 65_535)
    throw new OperatorUsageError(
      `${source}: "${text}" is not an address to listen on: write HOST:PORT, e.g. 127.0.0.1:7311 (this machine) or 0.0.0.0:7311 (every interface)`,
    );
  const rawHost = match[1];
  const host =
    rawHost === undefined ? '127.0.0.1' : rawHost === '' ? '0.0.0.0' : rawHost.replace(/^\[|\]$/g, '');
  return { host, port };
}

function parseWholeSeconds(text: string, source: string, what: string, example: number): number {
  if (!/^[1-9][0-9]*$/.test(text))
    throw new OperatorUsageError(
      `${source}: "${text}" is not ${what}: write a whole number of seconds ≥ 1, e.g. ${example}`,
    );
  return Number(text);
}
