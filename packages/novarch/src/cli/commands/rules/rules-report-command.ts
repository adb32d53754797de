import type { Command } from 'commander';
import { z } from 'zod';
import { OperatorUsageError } from '../../../errors.js';
import { formatJson } from '../../../format/format-table.js';
import { formatShadowReport } from '../../../format/rules-format.js';
import { shadowReport } from '../../../rules/report/shadow-report.js';
import { ExitCode } from '../../exit-codes.js';
import { paint } from '../../terminal-style.js';
import {
  GlobalOptionsSchema,
  type OperatorContext,
  parseCommandOptions,
  type RunCommand,
} from '../operator-context.js';
import { onRulesStore } from './rules-store.js';
import { parseSince } from './rules-test-command.js';

const ReportOptionsSchema = GlobalOptionsSchema.extend({
  team: z.string().optional(),
  tenant: z.string().optional(),
  since: z.string().optional(),
  json: z.boolean().default(false),
});

/**
 * `novarch rules report --team T`: what each rule in `mode: monitor` would have changed, read from
 * the shadow outcomes recorded with the team's verdicts. On a store, like `rules test`.
 */
export function registerRulesReportCommand(rules: Command, run: RunCommand, context: OperatorContext): void {
  rules
    .command('report')
    .description(
      'shadow mode: what each rule in mode: monitor would have held or killed, from recorded verdicts',
    )
    .option('--team <team>', 'the team whose verdicts are read (required)')
    .option('--tenant <tenant>', "only this tenant's sessions")
    .option('--since <date>', 'only actions since this date (2026-05-01) or time (2026-05-01T12:00:00Z)')
    .option('--json', 'print JSON instead of text')
    .addHelpText(
      'after',
      '\nExit codes of rules report: 0 read, 2 usage error, 1 the store could not be read.',
    )
    .action((_options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(ReportOptionsSchema, command);
        const team = options.team?.trim();
        if (team === undefined || team === '')
          throw new OperatorUsageError(
            'novarch rules report: pass --team TEAM, the team whose monitored rules to report on.',
          );
        const since = options.since === undefined ? undefined : parseSince(options.since, 'report');
        const report = await onRulesStore(
          options,
          context,
          async (store) => {
            const entries = await store.audit({
              teamId: team,
              ...(since === undefined ? {} : { since }),
              ...(options.tenant === undefined ? {} : { tenantId: options.tenant }),
            });
            return shadowReport(entries, team, since);
          },
          'report',
        );
        context.stdout.write(
          options.json ? formatJson(report) : paint(formatShadowReport(report), context.style),
        );
        return ExitCode.ok;
      }),
    );
}
