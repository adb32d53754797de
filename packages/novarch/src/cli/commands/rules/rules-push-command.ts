import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { formatJson } from '../../../format/format-table.js';
import { shortHash } from '../../../format/rules-format.js';
import { ExitCode } from '../../exit-codes.js';
import {
  GlobalOptionsSchema,
  type OperatorContext,
  parseCommandOptions,
  type RunCommand,
} from '../operator-context.js';
import { loadRulesFor, TENANT_HELP } from './rules-arguments.js';
import { rulesServiceFor } from './rules-service-for.js';

const PushOptionsSchema = GlobalOptionsSchema.extend({
  team: z.string().optional(),
  tenant: z.string().optional(),
  operator: z.string().optional(),
  json: z.boolean().default(false),
});

/** `novarch rules push FILE`: validates a rules file and stores it as its team's next version. */
export function registerRulesPushCommand(rules: Command, run: RunCommand, context: OperatorContext): void {
  rules
    .command('push <file>')
    .description('validate a rules file and store it as the next version of its team’s rules')
    .option('--team <team>', "the team it is for (default: the file's team:; another one is refused)")
    .option('--tenant <tenant>', TENANT_HELP)
    .option(
      '--operator <name>',
      "who pushes it (default $USER; not with --server, which records its token's name)",
    )
    .option('--json', 'print the stored version as JSON')
    .action((file: string, _options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(PushOptionsSchema, command);
        const service = rulesServiceFor('push', options, context, true);
        const ruleSet = await loadRulesFor(file, context, options.team);
        const absolute = ruleSet.file ?? path.resolve(context.cwd, file);
        const source = await readFile(absolute, 'utf8');
        const {
          created,
          ruleSet: stored,
          version,
        } = await service.push({
          absolute,
          source,
          team: ruleSet.team,
        });
        const to = service.server === undefined ? '' : ` to ${service.server}`;
        const on = service.server === undefined ? '' : ` on ${service.server}`;
        context.stdout.write(
          options.json
            ? formatJson({ created, ...stored })
            : created
              ? `Pushed ${absolute}${to} as ${version} (${shortHash(stored.contentHash)}, by ${stored.pushedBy}).\n`
              : `Unchanged: ${absolute} is ${version}${on} already (${shortHash(stored.contentHash)}); nothing pushed.\n`,
        );
        return ExitCode.ok;
      }),
    );
}
