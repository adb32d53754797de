import type { Command } from 'commander';
import { z } from 'zod';
import { OperatorUsageError } from '../../errors.js';
import { cell, formatJson, formatTable } from '../../format/format-table.js';
import { plainText } from '../../format/styled-text.js';
import type { OperatorTokenInfo } from '../../identity/operator-tokens.js';
import { formatGrant, type Grant, OPERATOR_ROLES, parseGrant } from '../../identity/principal.js';
import { checkOperatorName } from '../../operations/governed-process.js';
import { ExitCode } from '../exit-codes.js';
import { IDENTITY_STORE_HELP, onIdentities } from './keys-command.js';
import {
  GlobalOptionsSchema,
  type OperatorContext,
  parseCommandOptions,
  type RunCommand,
} from './operator-context.js';

const CreateOptionsSchema = GlobalOptionsSchema.extend({
  name: z.string(),
  role: z.enum(OPERATOR_ROLES).default('operator'),
  grant: z.array(z.string()).default([]),
  group: z.array(z.string()).default([]),
  notForKey: z.array(z.string()).default([]),
  json: z.boolean().default(false),
});
const ListOptionsSchema = GlobalOptionsSchema.extend({ json: z.boolean().default(false) });

const ROLES_HELP = `
Roles: operator decides holds and kills sessions of the tenants and teams granted; admin may also
manage agent keys and operator tokens of them (/v1/admin routes). Grants: --grant acme (every team
of tenant acme), --grant acme/cs-ops (one team), --grant '*' (every tenant); repeat --grant.
Separation of duties: --group NAME puts the operator in an approver group (a rule's approvers:
names the groups that may decide its holds); --not-for-key nva_… names an agent key whose
sessions' holds the operator may not decide (the team that runs the agent). Both repeatable.`;

function formatTokens(tokens: readonly OperatorTokenInfo[]): string {
  if (tokens.length === 0) return 'No operator tokens.\n';
  return plainText(
    formatTable(
      ['TOKEN', 'NAME', 'ROLE', 'GRANTS', 'GROUPS', 'NOT FOR', 'CREATED', 'REVOKED'],
      tokens.map((token) => [
        token.id,
        token.name,
        token.role,
        token.grants.map(formatGrant).join(','),
        cell(token.groups?.join(',')),
        cell(token.notForKeys?.join(',')),
        token.createdAt,
        cell(token.revokedAt),
      ]),
    ),
  );
}

function parseGrants(texts: readonly string[]): Grant[] {
  if (texts.length === 0)
    throw new OperatorUsageError(
      "novarch operators create needs at least one --grant: --grant TENANT, --grant TENANT/TEAM or --grant '*'",
    );
  return texts.map((text) => {
    const grant = parseGrant(text);
    if (typeof grant === 'string') throw new OperatorUsageError(`--grant: ${grant}`);
    return grant;
  });
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `novarch operators create|list|revoke`: operator tokens with roles and grants. */
export function registerOperatorsCommand(program: Command, run: RunCommand, context: OperatorContext): void {
  const operators = program
    .command('operators')
    .description('operator tokens: who may decide holds and kill sessions on the server');
  registerOperatorsCreate(operators, run, context);
  registerOperatorsList(operators, run, context);
  registerOperatorsRevoke(operators, run, context);
}

function registerOperatorsCreate(operators: Command, run: RunCommand, context: OperatorContext): void {
  operators
    .command('create')
    .description('create an operator token; the token is printed once')
    .requiredOption('--name <name>', 'the operator (stored with every decision made with the token)')
    .option('--role <role>', 'operator (default) or admin')
    .option(
      '--grant <grant>',
      'a tenant, tenant/team, or * (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--group <group>', 'an approver group the operator is in (repeatable)', collect)
    .option(
      '--not-for-key <keyId>',
      "an agent key whose sessions' holds it may not decide (repeatable)",
      collect,
    )
    .option('--json', 'print JSON: { token, secret }')
    .addHelpText('after', `${ROLES_HELP}\n${IDENTITY_STORE_HELP}`)
    .action((_options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(CreateOptionsSchema, command);
        const name = checkOperatorName(options.name);
        const grants = parseGrants(options.grant);
        const created = await onIdentities(options, context, (identities) =>
          identities.createOperatorToken({
            name,
            role: options.role,
            grants,
            groups: options.group,
            notForKeys: options.notForKey,
          }),
        );
        context.stdout.write(
          options.json
            ? formatJson({ token: created.info, secret: created.secret })
            : `${created.secret}\n\nOperator token ${created.info.id} for ${created.info.name} (${created.info.role}; ${created.info.grants.map(formatGrant).join(', ')}).\nIt is shown only now: the operator sets it as NOVARCH_TOKEN. Revoke it with \`novarch operators revoke ${created.info.id}${options.server === undefined ? '' : ` --server ${options.server}`}\`.\n`,
        );
        return ExitCode.ok;
      }),
    );
}

function registerOperatorsList(operators: Command, run: RunCommand, context: OperatorContext): void {
  operators
    .command('list')
    .description('list operator tokens (never their secrets)')
    .option('--json', 'print JSON instead of a table')
    .addHelpText('after', IDENTITY_STORE_HELP)
    .action((_options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(ListOptionsSchema, command);
        const found = await onIdentities(options, context, (identities) => identities.listOperatorTokens());
        context.stdout.write(options.json ? formatJson(found) : formatTokens(found));
        return ExitCode.ok;
      }),
    );
}

function registerOperatorsRevoke(operators: Command, run: RunCommand, context: OperatorContext): void {
  operators
    .command('revoke')
    .description('revoke an operator token: the server answers its next request with 401')
    .argument('<token-id>', 'the token, e.g. nvo_3f9c0a1b2c3d (as `operators list` shows it)')
    .addHelpText('after', IDENTITY_STORE_HELP)
    .action((tokenId: string, _options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(GlobalOptionsSchema, command);
        const revoked = await onIdentities(options, context, async (identities) => {
          const token = await identities.revokeOperatorToken(tokenId);
          if (token === undefined)
            throw new OperatorUsageError(
              `No operator token "${tokenId}": \`novarch operators list\` shows the tokens (ids start with nvo_).`,
            );
          return token;
        });
        context.stdout.write(
          `Operator token ${revoked.id} (${revoked.name}) revoked at ${revoked.revokedAt ?? '?'}.\n`,
        );
        return ExitCode.ok;
      }),
    );
}
