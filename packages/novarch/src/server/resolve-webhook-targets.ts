import { NovarchConfigError, OperatorUsageError } from '../errors.js';
import {
  checkWebhookTarget,
  MIN_WEBHOOK_SECRET_LENGTH,
  type WebhookTarget,
  webhookSecretVariable,
} from '../notify/webhook-target.js';
import type { NovarchTenantConfig } from '../rules/novarch-server-config.js';
import { errorMessage } from '../support.js';

/** Where the webhook targets come from: `--webhook`, `$NOVARCH_WEBHOOKS` or the file. */
export interface WebhookSources {
  /** `--webhook TENANT=URL`, once per tenant. */
  flags: readonly string[] | undefined;
  /** `$NOVARCH_WEBHOOKS` (`TENANT=URL,TENANT=URL`) and the secret variables. */
  env: Readonly<Record<string, string | undefined>>;
  /** The name of `$NOVARCH_WEBHOOKS`. */
  envName: string;
  /** The configuration file, when one was read. */
  configFile: string | undefined;
  /** Its `server.tenants` (the `webhook:` of each, and which tenants are served). */
  tenants: Readonly<Record<string, NovarchTenantConfig>> | undefined;
}

/** The tenants' webhook targets and where they were set. */
export interface ResolvedWebhooks {
  /** `--webhook`, `$NOVARCH_WEBHOOKS` or `server.tenants in FILE`. */
  source: string;
  targets: Record<string, WebhookTarget>;
}

/** One webhook as given, and how to refuse it: by flag or variable, or at its line of the file. */
interface WebhookEntry {
  tenantId: string;
  url: string;
  /** The error that refuses it, saying why (and, for the file, how to fix it). */
  refusal(message: string, hint?: string): Error;
}

/**
 * The tenants' webhooks, each setting from the first that has any: `--webhook TENANT=URL`
 * (repeated), else `$NOVARCH_WEBHOOKS`, else the `webhook:` of each tenant of `server.tenants`.
 * Each secret comes from `$NOVARCH_WEBHOOK_SECRET_<TENANT>`, never a flag or a file; only tenants
 * the server serves (when `server.tenants` lists them). Refusals name the flag or variable, or
 * the file, line and field of the webhook.
 */
export function resolveWebhookTargets(sources: WebhookSources): ResolvedWebhooks | undefined {
  const { env, tenants } = sources;
  const given = collectEntries(sources);
  if (given === undefined) return undefined;
  const targets: Record<string, WebhookTarget> = {};
  const variables = new Map<string, string>();
  for (const entry of given.entries) {
    const { tenantId, url, refusal } = entry;
    if (tenantId in targets) throw refusal(`tenant "${tenantId}" has two webhooks`);
    if (tenants !== undefined && !(tenantId in tenants))
      throw refusal(
        `tenant "${tenantId}" is not served here (server.tenants lists ${Object.keys(tenants).join(', ')})`,
      );
    const variable = webhookSecretVariable(tenantId);
    const other = variables.get(variable);
    if (other !== undefined)
      throw refusal(
        `tenants "${other}" and "${tenantId}" would share the secret variable $${variable}: give one of them no webhook`,
      );
    variables.set(variable, tenantId);
    const secret = env[variable];
    if (secret === undefined || secret === '')
      throw refusal(
        `the webhook of tenant "${tenantId}" needs its signing secret in $${variable} (at least ${MIN_WEBHOOK_SECRET_LENGTH} characters, e.g. from \`openssl rand -hex 32\`)`,
        'a webhook secret is read from the environment only, never from novarch.yaml',
      );
    try {
      checkWebhookTarget(tenantId, { url, secret });
    } catch (error) {
      throw refusal(errorMessage(error));
    }
    targets[tenantId] = { url, secret };
  }
  return { source: given.source, targets };
}

function collectEntries(sources: WebhookSources): { source: string; entries: WebhookEntry[] } | undefined {
  const { flags, env, envName, configFile, tenants } = sources;
  const fromEnv = env[envName]?.trim();
  const [source, written] =
    flags !== undefined && flags.length > 0
      ? ['--webhook', flags]
      : fromEnv
        ? [`$${envName}`, fromEnv.split(',')]
        : [undefined, []];
  if (source !== undefined) {
    const refusal = (message: string) => new OperatorUsageError(`${source}: ${message}`);
    return {
      source,
      entries: written.map((entry) => {
        const match = /^\s*([A-Za-z0-9][A-Za-z0-9._-]{0,63})=(\S+)\s*$/.exec(entry);
        if (!match?.[1] || !match[2])
          throw refusal(
            `"${entry}" is not a webhook: write TENANT=URL, e.g. acme=https://hooks.acme.example/novarch`,
          );
        return { tenantId: match[1], url: match[2], refusal };
      }),
    };
  }
  const declared = Object.entries(tenants ?? {}).flatMap(([tenantId, tenant]) =>
    tenant.webhook === undefined ? [] : [{ tenantId, webhook: tenant.webhook }],
  );
  if (configFile === undefined || declared.length === 0) return undefined;
  return {
    source: `server.tenants in ${configFile}`,
    entries: declared.map(({ tenantId, webhook }) => ({
      tenantId,
      url: webhook.url,
      refusal(message: string, hint?: string): Error {
        return new NovarchConfigError([
          {
            file: configFile,
            ...(webhook.position === undefined ? {} : webhook.position),
            path: `server.tenants.${tenantId}.webhook`,
            message,
            ...(hint === undefined ? {} : { hint }),
          },
        ]);
      },
    })),
  };
}
