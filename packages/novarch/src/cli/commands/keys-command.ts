import type { Command } from 'commander';
import { z } from 'zod';
import { OperatorUsageError } from '../../errors.js';
import { cell, formatJson, formatTable } from '../../format/format-table.js';
import { plainText } from '../../format/styled-text.js';
import type { AgentKeyInfo } from '../../identity/agent-keys.js';
import type { IdentityOperations } from '../../remote/remote-identities.js';
import { resolveServerSettings } from '../../server/resolve-server-settings.js';
import { ExitCode } from '../exit-codes.js';
import {
  GlobalOptionsSchema,
  type OperatorContext,
  parseCommandOptions,
  type RunCommand,
  serverClient,
} from './operator-context.js';

const CreateOptionsSchema = GlobalOptionsSchema.extend({
  tenant: z.string(),
  name: z.string(),
  agent: z.string().optional(),
  team: z.array(z.string()).optional(),
  json: z.boolean().default(false),
});
const ListOptionsSchema = GlobalOptionsSchema.extend({
  tenant: z.string().optional(),
  json: z.boolean().default(false),
});

export const IDENTITY_STORE_HELP = `
Works on the store novarch serve uses: --store (sqlite:PATH or postgres://…) > $NOVARCH_STORE_URL
> server.store_url of --config (or ./novarch.yaml) > sqlite: + store.path. Or, with --server URL,
through that server under an admin token in $NOVARCH_TOKEN (only keys and tokens within its
grants). Secrets are stored as SHA-256 hashes only: the secret is printed once, at creation.`;

/**
 * Runs a keys or operators command: with `--server URL`, through the server's admin routes under
 * the admin token in `$NOVARCH_TOKEN`; otherwise on the server's store directly (created if new).
 */
export async function onIdentities<T>(
  options: z.output<typeof GlobalOptionsSchema>,
  context: OperatorContext,
  work: (identities: IdentityOperations, where: 'server' | 'store') => Promise<T>,
): Promise<T> {
  const remote = serverClient(options, context);
  if (remote !== undefined) return remote.call((client) => work(client.identities(), 'server'));
  const settings = await resolveServerSettings(options, context);
  // Loaded on use: kysely and the database drivers take a while to import, which --help need not wait for.
  const { openServerStores } = await import('../../server/open-server-stores.js');
  const stores = await openServerStores(settings.storeUrl, settings.storeOptions);
  try {
    return await work(stores.identities, 'store');
  } finally {
    await stores.close();
  }
}

function formatKeys(keys: readonly AgentKeyInfo[]): string {
  if (keys.length === 0) return 'No agent keys.\n';
  return plainText(
    formatTable(
      ['KEY', 'TENANT', 'NAME', 'AGENT', 'TEAMS', 'CREATED', 'REVOKED'],
      keys.map((key) => [
        key.id,
        key.tenantId,
        key.name,
        key.agentId ?? 'any',
        key.teamIds?.join(',') ?? 'all',
        key.createdAt,
        cell(key.revokedAt),
      ]),
    ),
  );
}

/** `novarch keys create|list|revoke`: the agent keys of tenants. */
export function registerKeysCommand(program: Command, run: RunCommand, context: OperatorContext): void {
  const keys = program
    .command('keys')
    .description("agent keys: an agent governs its tenant's sessions with one (it never decides)");
  registerKeysCreate(keys, run, context);
  registerKeysList(keys, run, context);
  registerKeysRevoke(keys, run, context);
}

function registerKeysCreate(keys: Command, run: RunCommand, context: OperatorContext): void {
  keys
    .command('create')
    .description('create an agent key for a tenant; the key is printed once')
    .requiredOption('--tenant <tenant>', 'the tenant the key governs sessions of')
    .requiredOption('--name <name>', 'what the key is for, e.g. cs-bot-prod')
    .option(
      '--agent <agent>',
      'bind the key to one agent: it opens sessions of this agent id only (recommended)',
    )
    .option(
      '--team <team>',
      'bind the key to a team (repeat for several): it opens sessions of these teams only',
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    )
    .option('--json', 'print JSON: { key, secret }')
    .addHelpText('after', IDENTITY_STORE_HELP)
    .action((_options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(CreateOptionsSchema, command);
        const created = await onIdentities(options, context, async (identities, where) => {
          // Through a server, the server checks its own server.tenants.
          const tenants =
            where === 'store' ? (await resolveServerSettings(options, context)).tenants : undefined;
          if (tenants !== undefined && !(options.tenant in tenants))
            throw new OperatorUsageError(
              `tenant "${options.tenant}" is not under server.tenants in the configuration (${Object.keys(tenants).join(', ')}): add it there first`,
            );
          return identities.createAgentKey({
            tenantId: options.tenant,
            name: options.name,
            ...(options.agent === undefined ? {} : { agentId: options.agent }),
            ...(options.team === undefined ? {} : { teamIds: options.team }),
          });
        });
        context.stdout.write(
          options.json
            ? formatJson({ key: created.info, secret: created.secret })
            : `${created.secret}\n\nAgent key ${created.info.id} for tenant ${created.info.tenantId} (${created.info.name}).\nIt is shown only now: give it to the agent as NOVARCH_API_KEY. Revoke it with \`novarch keys revoke ${created.info.id}${options.server === undefined ? '' : ` --server ${options.server}`}\`.\n`,
        );
        return ExitCode.ok;
      }),
    );
}

function registerKeysList(keys: Command, run: RunCommand, context: OperatorContext): void {
  keys
    .command('list')
    .description('list agent keys (never their secrets)')
    .option('--tenant <tenant>', 'only keys of this tenant')
    .option('--json', 'print JSON instead of a table')
    .addHelpText('after', IDENTITY_STORE_HELP)
    .action((_options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(ListOptionsSchema, command);
        const found = await onIdentities(options, context, (identities) =>
          identities.listAgentKeys(
            options.tenant === undefined ? {} : { tenants: new Set([options.tenant]) },
          ),
        );
        context.stdout.write(options.json ? formatJson(found) : formatKeys(found));
        return ExitCode.ok;
      }),
    );
}

function registerKeysRevoke(keys: Command, run: RunCommand, context: OperatorContext): void {
  keys
    .command('revoke')
    .description('revoke an agent key: the server answers its next request with 401')
    .argument('<key-id>', 'the key, e.g. nva_3f9c0a1b2c3d (as `keys list` shows it)')
    .addHelpText('after', IDENTITY_STORE_HELP)
    .action((keyId: string, _options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(GlobalOptionsSchema, command);
        const revoked = await onIdentities(options, context, async (identities) => {
          const key = await identities.revokeAgentKey(keyId);
          if (key === undefined)
            throw new OperatorUsageError(
              `No agent key "${keyId}": \`novarch keys list\` shows the keys (ids start with nva_).`,
            );
          return key;
        });
        context.stdout.write(
          `Agent key ${revoked.id} (${revoked.tenantId}, ${revoked.name}) revoked at ${revoked.revokedAt ?? '?'}.\n`,
        );
        return ExitCode.ok;
      }),
    );
}
