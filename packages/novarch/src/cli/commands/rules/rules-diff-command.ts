import type { Command } from 'commander';
import { z } from 'zod';
import { formatRuleSetDiff } from '../../../format/rules-format.js';
import { ExitCode } from '../../exit-codes.js';
import { paint } from '../../terminal-style.js';
import {
  GlobalOptionsSchema,
  type OperatorContext,
  parseCommandOptions,
  type RunCommand,
} from '../operator-context.js';
import { parseVersion, TENANT_HELP } from './rules-arguments.js';
import { rulesServiceFor } from './rules-service-for.js';

const DiffOptionsSchema = GlobalOptionsSchema.extend({ tenant: z.string().optional() });

/** `novarch rules diff TEAM FROM TO`: a line diff between two versions of a team's rules. */
export function registerRulesDiffCommand(rules: Command, run: RunCommand, context: OperatorContext): void {
  rules
    .command('diff <team> <from> <to>')
    .description('a line diff between two versions of a team’s rules (e.g. rules diff cs-ops 2 3)')
    .option('--tenant <tenant>', TENANT_HELP)
    .action((team: string, from: string, to: string, _options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(DiffOptionsSchema, command);
        const [first, second] = [parseVersion('diff', from), parseVersion('diff', to)];
        const service = rulesServiceFor('diff', options, context, true);
        const [before, after] = await service.diff(team, first, second);
        context.stdout.write(paint(formatRuleSetDiff(before, after), context.style));
        return ExitCode.ok;
      }),
    );
}
