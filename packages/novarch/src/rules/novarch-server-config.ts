import type { YamlPosition } from 'yaml-diagnostics';
import { z } from 'zod';
import { webhookSecretVariable, webhookUrlProblem } from '../notify/webhook-target.js';
import { publicUrlProblem } from './check-public-url.js';
import { type NovarchSlackConfig, NovarchSlackConfigSchema, toSlackConfig } from './slack-server-config.js';

/** The `server:` section: where `novarch serve` listens, its store, the tenants it serves. */
export interface NovarchServerConfig {
  /** `HOST:PORT` (default 127.0.0.1:7311). */
  listen?: string;
  /** `sqlite:PATH` (relative to the file) or `postgres://…`; default `sqlite:` + `store.path`. */
  storeUrl?: string;
  /** Where operators reach the server, `http(s)://HOST[:PORT]` (default the listen address). */
  publicUrl?: string;
  /** How long a shutdown waits for the writes being judged before it refuses them (s, default 30). */
  drainTimeoutSeconds?: number;
  /** The tenants served, with their own hold windows and webhooks; absent: every tenant a key names. */
  tenants?: Record<string, NovarchTenantConfig>;
  /** Interactive approvals in Slack (`server.slack`); absent: off. */
  slack?: NovarchSlackConfig;
}

/** A tenant of `server.tenants`. */
export interface NovarchTenantConfig {
  /** This tenant's hold window (s); default the deployment's. */
  holdWindowSeconds?: number;
  /** Where this tenant's webhooks on new holds go; the secret is never in the file. */
  webhook?: NovarchWebhookConfig;
}

/**
 * `server.tenants.<id>.webhook`: the receiver's URL. Its signing secret is read from
 * `$NOVARCH_WEBHOOK_SECRET_<TENANT>` only (`webhookSecretVariable`), when the server starts.
 */
export interface NovarchWebhookConfig {
  url: string;
  /** Where `webhook:` is written in the file, for messages about it (set by `loadNovarchConfig`). */
  position?: YamlPosition;
}

/** A string refused with the problem `check` finds in it (the check is the one the flags use). */
function checkedString(check: (text: string) => string | undefined) {
  return z.string().superRefine((text, context) => {
    const problem = check(text);
    if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
  });
}

/** `server.tenants.<id>`: its hold window and webhook (snake_case). */
const TenantConfigSchema = z.strictObject({
  hold_window_seconds: z.int().min(1).optional(),
  webhook: z.strictObject({ url: checkedString(webhookUrlProblem) }).optional(),
});

/** Two tenants whose ids differ only in `.`, `-` or case would read one secret variable. */
function checkSecretVariables(
  tenants: Record<string, z.output<typeof TenantConfigSchema> | null>,
  context: z.RefinementCtx,
): void {
  const owners = new Map<string, string>();
  for (const [tenantId, tenant] of Object.entries(tenants)) {
    if (tenant?.webhook === undefined) continue;
    const variable = webhookSecretVariable(tenantId);
    const other = owners.get(variable);
    if (other === undefined) owners.set(variable, tenantId);
    else
      context.addIssue({
        code: 'custom',
        path: [tenantId, 'webhook'],
        message: `tenants "${other}" and "${tenantId}" would share the secret variable $${variable}: give one of them no webhook`,
      });
  }
}

/** The `server:` section of novarch.yaml (snake_case, strict: unknown keys are errors). */
export const NovarchServerConfigSchema = z.strictObject({
  listen: z
    .string()
    .regex(
      /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]*):[0-9]{1,5}$/,
      'expected HOST:PORT, e.g. 127.0.0.1:7311 or 0.0.0.0:7311',
    )
    .optional(),
  store_url: z
    .string()
    .regex(
      /^(sqlite:|postgres(ql)?:\/\/)/,
      'expected sqlite:PATH or postgres://USER:PASSWORD@HOST:PORT/DATABASE',
    )
    .optional(),
  public_url: checkedString(publicUrlProblem).optional(),
  drain_timeout_seconds: z.int().min(1).optional(),
  tenants: z
    .record(
      z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a tenant id: letters, digits, . _ -'),
      TenantConfigSchema.nullable().default({}),
    )
    .superRefine(checkSecretVariables)
    .optional(),
  slack: NovarchSlackConfigSchema.optional(),
});

/** Converts a validated `server:` section; `resolvePath` makes a path of the file absolute. */
export function toServerConfig(
  server: z.output<typeof NovarchServerConfigSchema>,
  resolvePath: (value: string) => string,
): NovarchServerConfig {
  const sqlite = server.store_url?.startsWith('sqlite:') === true;
  return {
    ...(server.listen === undefined ? {} : { listen: server.listen }),
    ...(server.store_url === undefined
      ? {}
      : {
          // A relative sqlite: path is relative to this file, as every other path in it.
          storeUrl: sqlite
            ? `sqlite:${resolvePath(server.store_url.slice('sqlite:'.length))}`
            : server.store_url,
        }),
    ...(server.public_url === undefined ? {} : { publicUrl: server.public_url }),
    ...(server.drain_timeout_seconds === undefined
      ? {}
      : { drainTimeoutSeconds: server.drain_timeout_seconds }),
    ...(server.slack === undefined ? {} : { slack: toSlackConfig(server.slack, resolvePath) }),
    ...(server.tenants === undefined
      ? {}
      : {
          tenants: Object.fromEntries(
            Object.entries(server.tenants).map(([id, tenant]): [string, NovarchTenantConfig] => [
              id,
              {
                ...(tenant?.hold_window_seconds === undefined
                  ? {}
                  : { holdWindowSeconds: tenant.hold_window_seconds }),
                ...(tenant?.webhook === undefined ? {} : { webhook: { url: tenant.webhook.url } }),
              },
            ]),
          ),
        }),
  };
}
