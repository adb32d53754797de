import type { Command } from 'commander';
import { z } from 'zod';
import { formatJson } from '../../../format/format-table.js';
import { formatRuleSetsTable, formatServerRuleSetsTable } from '../../../format/rules-format.js';
import { ExitCode } from '../../exit-codes.js';
import { paint } from '../../terminal-style.js';
import {
  GlobalOptionsSchema,
  type OperatorContext,
  parseCommandOptions,
  type RunCommand,
} from '../operator-context.js';
import { rulesServiceFor } from './rules-service-for.js';

const ListOptionsSchema = GlobalOptionsSchema.extend({
  team: z.string().optional(),
  tenant: z.string().optional(),
  json: z.boolean().default(false),
});

/** `novarch rules list`: the pushed versions, by team then version (with their tenant on a server). */
export function registerRulesListCommand(rules: Command, run: RunCommand, context: OperatorContext): void {
  rules
    .command('list')
    .description('list the pushed versions, by team then version')
    .option('--team <team>', 'only the versions of this team')
    .option('--tenant <tenant>', "with --server: only this tenant's teams")
    .option('--json', 'print JSON instead of a table')
    .action((_options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(ListOptionsSchema, command);
        const service = rulesServiceFor('list', options, context, false);
        const sets = await service.list(options.team);
        const table =
          service.server === undefined
            ? formatRuleSetsTable(sets)
            : formatServerRuleSetsTable(sets.map((set) => ({ ...set, tenantId: set.tenantId ?? '' })));
        context.stdout.write(options.json ? formatJson(sets) : paint(table, context.style));
        return ExitCode.ok;
      }),
    );
}
