import { existsSync } from 'node:fs';
import path from 'node:path';
import { OperatorUsageError } from '../cli/operator-errors.js';
import {
  checkWebhookTarget,
  MIN_WEBHOOK_SECRET_LENGTH,
  type WebhookTarget,
} from '../notify/webhook-target.js';
import { loadNovarchConfig } from '../rules/load-novarch-config.js';
import {
  DEFAULT_HOLD_WINDOW_SECONDS,
  defaultNovarchConfig,
  type NovarchConfig,
  resolveUserPath,
} from '../rules/novarch-config.js';
import type { StoredValueOptions } from '../store/stored-value-policy.js';
import { checkPublicUrl } from './check-public-url.js';
import type { ServedTenant } from './server-services.js';

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
} as const;

/** The prefix of a tenant's webhook secret variable: `NOVARCH_WEBHOOK_SECRET_ACME` for tenant acme. */
export const WEBHOOK_SECRET_ENV_PREFIX = 'NOVARCH_WEBHOOK_SECRET_';

/** The flags that choose the server's settings. */
export interface ServerFlags {
  store?: string | undefined;
  config?: string | undefined;
  listen?: string | undefined;
  holdWindow?: string | undefined;
  publicUrl?: string | undefined;
  /** `TENANT=URL`, once per tenant. */
  webhook?: readonly string[] | undefined;
}

export interface ServerEnvironment {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  homeDirectory: string;
}

/** Everything `novarch serve` runs with, and where the store came from (for messages). */
export interface ServerSettings {
  host: string;
  port: number;
  storeUrl: string;
  storeSource: string;
  storeOptions: StoredValueOptions;
  holdWindowSeconds: number;
  config?: NovarchConfig;
  tenants?: Record<string, ServedTenant>;
  /** The address operators reach the server at (webhooks link to its console). */
  publicUrl?: string;
  /** Each tenant's webhook target (its secret from the environment). */
  webhooks?: Record<string, WebhookTarget>;
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
  const given = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);
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
      : parseSeconds(windowFrom.value, windowFrom.source);

  const publicUrlFrom = pick([
    ['--public-url', given(flags.publicUrl)],
    [`$${SERVER_ENV.publicUrl}`, given(env[SERVER_ENV.publicUrl])],
  ]);
  let publicUrl: string | undefined;
  try {
    publicUrl = publicUrlFrom && checkPublicUrl(publicUrlFrom.value);
  } catch (error) {
    throw new OperatorUsageError(
      `${publicUrlFrom?.source}: ${error instanceof Error ? error.message : error}`,
    );
  }
  const webhooks = resolveWebhooks(flags.webhook, env, config?.server?.tenants);
  if (webhooks !== undefined && publicUrl === undefined && (host === '0.0.0.0' || host === '::'))
    throw new OperatorUsageError(
      `webhooks link to the console, but ${listenFrom.source} listens on every interface (${listenFrom.value}): give the address operators reach the server at with --public-url or $${SERVER_ENV.publicUrl}, e.g. https://novarch.example.com`,
    );

  const { path: _storePath, ...storeOptions } = base.store;
  return {
    host,
    port,
    storeUrl,
    storeSource: storeFrom.source,
    storeOptions,
    holdWindowSeconds,
    ...(config === undefined ? {} : { config }),
    ...(config?.server?.tenants === undefined ? {} : { tenants: config.server.tenants }),
    ...(publicUrl === undefined ? {} : { publicUrl }),
    ...(webhooks === undefined ? {} : { webhooks }),
  };
}

/** The variable that holds a tenant's webhook secret: `NOVARCH_WEBHOOK_SECRET_` + the id in capitals, `.` and `-` as `_`. */
export function webhookSecretVariable(tenantId: string): string {
  return `${WEBHOOK_SECRET_ENV_PREFIX}${tenantId.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * The tenants' webhooks: `--webhook TENANT=URL` (repeated), else `$NOVARCH_WEBHOOKS`
 * (`TENANT=URL,TENANT=URL`); each secret from `$NOVARCH_WEBHOOK_SECRET_<TENANT>`, never a flag or
 * a file. Only tenants the server serves (when `server.tenants` lists them).
 */
function resolveWebhooks(
  flags: readonly string[] | undefined,
  env: ServerEnvironment['env'],
  tenants: Readonly<Record<string, unknown>> | undefined,
): Record<string, WebhookTarget> | undefined {
  const fromEnv = env[SERVER_ENV.webhooks]?.trim();
  const [source, entries] =
    flags !== undefined && flags.length > 0
      ? ['--webhook', flags]
      : fromEnv
        ? [`$${SERVER_ENV.webhooks}`, fromEnv.split(',')]
        : [undefined, []];
  if (source === undefined) return undefined;
  const targets: Record<string, WebhookTarget> = {};
  const variables = new Map<string, string>();
  for (const entry of entries) {
    const match = /^\s*([A-Za-z0-9][A-Za-z0-9._-]{0,63})=(\S+)\s*$/.exec(entry);
    if (!match?.[1] || !match[2])
      throw new OperatorUsageError(
        `${source}: "${entry}" is not a webhook: write TENANT=URL, e.g. acme=https://hooks.acme.example/novarch`,
      );
    const [, tenantId, url] = match;
    if (tenantId in targets) throw new OperatorUsageError(`${source}: tenant "${tenantId}" has two webhooks`);
    if (tenants !== undefined && !(tenantId in tenants))
      throw new OperatorUsageError(
        `${source}: tenant "${tenantId}" is not served here (server.tenants lists ${Object.keys(tenants).join(', ')})`,
      );
    const variable = webhookSecretVariable(tenantId);
    const other = variables.get(variable);
    if (other !== undefined)
      throw new OperatorUsageError(
        `${source}: tenants "${other}" and "${tenantId}" would share the secret variable $${variable}: give one of them no webhook`,
      );
    variables.set(variable, tenantId);
    const secret = env[variable];
    if (secret === undefined || secret === '')
      throw new OperatorUsageError(
        `${source}: the webhook of tenant "${tenantId}" needs its signing secret in $${variable} (at least ${MIN_WEBHOOK_SECRET_LENGTH} characters, e.g. from \`openssl rand -hex 32\`)`,
      );
    try {
      checkWebhookTarget(tenantId, { url, secret });
    } catch (error) {
      throw new OperatorUsageError(`${source}: ${error instanceof Error ? error.message : String(error)}`);
    }
    targets[tenantId] = { url, secret };
  }
  return targets;
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

function parseSeconds(text: string, source: string): number {
  if (!/^[1-9][0-9]*$/.test(text))
    throw new OperatorUsageError(
      `${source}: "${text}" is not a hold window: write a whole number of seconds ≥ 1, e.g. 300`,
    );
  return Number(text);
}
