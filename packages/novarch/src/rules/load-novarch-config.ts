import { access } from 'node:fs/promises';
import { type FieldIssue, isRecord, locateYamlPath, mapZodIssues } from 'yaml-diagnostics';
import { NovarchConfigError } from '../errors.js';
import { webhookSecretVariable } from '../notify/webhook-target.js';
import { type NovarchConfig, NovarchConfigSchema, toNovarchConfig } from './novarch-config.js';
import { locateIssues, readYamlFile, type YamlFile } from './yaml/read-yaml-file.js';

const WHAT = {
  noun: 'Novarch configuration file',
  example:
    'keys: hold_window_seconds (default 300), judge: {provider: anthropic, model}, store: {path, redact, replace_default_redactions, max_stored_bytes}, rules: [files], server: {listen, store_url, public_url, drain_timeout_seconds, tenants: {ID: {hold_window_seconds, webhook: {url}}}, slack: {channels: {teams, rules}, operators, api_url, secrets_file}}',
};

/**
 * Loads the deployment's configuration (YAML). Throws a NovarchConfigError listing every problem
 * at once: malformed YAML, unknown or missing fields, bad values, rules files that do not exist.
 * Relative paths are relative to the configuration file; `~` is the home directory.
 */
export async function loadNovarchConfig(
  file: string,
  options: { homeDirectory?: string } = {},
): Promise<NovarchConfig> {
  const read = await readYamlFile(file, WHAT);
  if (!read.ok) throw new NovarchConfigError(read.issues);
  const { yaml } = read;
  const secrets = refuseWebhookSecrets(yaml.data);
  const parsed = NovarchConfigSchema.safeParse(secrets.data);
  const issues: FieldIssue[] = [...yaml.duplicateKeys, ...secrets.issues];
  if (!parsed.success)
    issues.push(
      ...mapZodIssues(parsed.error.issues, {
        schema: NovarchConfigSchema,
        data: secrets.data,
        terse: true,
      }),
    );
  const config = parsed.success ? toNovarchConfig(parsed.data, yaml.file, options.homeDirectory) : undefined;
  if (config) {
    locateWebhooks(config, yaml);
    const missing = await Promise.all(config.rules.map((rulesFile) => isMissing(rulesFile)));
    config.rules.forEach((rulesFile, index) => {
      if (missing[index])
        issues.push({
          path: ['rules', index],
          message: `rules file not found: ${rulesFile}`,
          hint: 'paths are relative to the configuration file',
        });
    });
  }
  if (issues.length > 0 || config === undefined) throw new NovarchConfigError(locateIssues(yaml, issues));
  return config;
}

/**
 * A `secret` under `server.tenants.<id>.webhook` is refused with where the secret goes instead
 * (it would sit in a file that is often committed or widely readable). The data is returned
 * without those keys, so that the schema reports only the other problems.
 */
function refuseWebhookSecrets(data: Record<string, unknown>): {
  data: Record<string, unknown>;
  issues: FieldIssue[];
} {
  const server = data.server;
  if (!isRecord(server) || !isRecord(server.tenants)) return { data, issues: [] };
  const issues: FieldIssue[] = [];
  const tenants: Record<string, unknown> = {};
  for (const [tenantId, tenant] of Object.entries(server.tenants)) {
    tenants[tenantId] = tenant;
    if (!isRecord(tenant) || !isRecord(tenant.webhook) || !('secret' in tenant.webhook)) continue;
    const { secret: _secret, ...webhook } = tenant.webhook;
    tenants[tenantId] = { ...tenant, webhook };
    issues.push({
      path: ['server', 'tenants', tenantId, 'webhook', 'secret'],
      anchor: 'key',
      message: `a webhook's secret is never read from the configuration file: set $${webhookSecretVariable(tenantId)} in the server's environment instead`,
      hint: 'remove this key (and change the secret if this file was shared)',
    });
  }
  return issues.length === 0
    ? { data, issues }
    : { data: { ...data, server: { ...server, tenants } }, issues };
}

/** Gives each webhook of `server.tenants` where it is written, so later messages can cite it. */
function locateWebhooks(config: NovarchConfig, yaml: YamlFile): void {
  for (const [tenantId, tenant] of Object.entries(config.server?.tenants ?? {})) {
    if (tenant.webhook === undefined) continue;
    tenant.webhook.position = locateYamlPath(yaml.document, yaml.lineCounter, [
      'server',
      'tenants',
      tenantId,
      'webhook',
    ]);
  }
}

async function isMissing(file: string): Promise<boolean> {
  try {
    await access(file);
    return false;
  } catch {
    return true;
  }
}
