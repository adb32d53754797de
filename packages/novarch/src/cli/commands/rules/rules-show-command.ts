import type { Command } from 'commander';
import { z } from 'zod';
import { formatJson } from '../../../format/format-table.js';
import { ExitCode } from '../../exit-codes.js';
import {
  GlobalOptionsSchema,
  type OperatorContext,
  parseCommandOptions,
  type RunCommand,
} from '../operator-context.js';
import { parseVersion, TENANT_HELP } from './rules-arguments.js';
import { rulesServiceFor } from './rules-service-for.js';

const ShowOptionsSchema = GlobalOptionsSchema.extend({
  tenant: z.string().optional(),
  json: z.boolean().default(false),
});

/** `novarch rules show TEAM [VERSION]`: a team's rules file as pushed. */
export function registerRulesShowCommand(rules: Command, run: RunCommand, context: OperatorContext): void {
  // The version is an argument, not `--version`: the program's own --version (Novarch's) is
  // recognised after subcommands too, so a subcommand cannot have one.
  rules
    .command('show <team> [version]')
    .description("print a team's rules file as pushed: the latest version, or the one given (3 or v3)")
    .option('--tenant <tenant>', TENANT_HELP)
    .option('--json', 'print the version with its content hash, who pushed it and when, as JSON')
    .action((team: string, version: string | undefined, _options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(ShowOptionsSchema, command);
        const wanted = version === undefined ? undefined : parseVersion('show', version);
        const shown = await rulesServiceFor('show', options, context, true).show(team, wanted);
        // Without --json the text exactly as stored, so `rules show T > rules.yaml` gives the file back.
        context.stdout.write(options.json ? formatJson(shown) : shown.content);
        return ExitCode.ok;
      }),
    );
}
