import type { Command } from 'commander';
import { z } from 'zod';
import { OperatorUsageError } from '../../../errors.js';
import { formatJson } from '../../../format/format-table.js';
import { formatReplayReport, replayReportJson } from '../../../format/rules-format.js';
import { ModelLlmJudge } from '../../../rules/llm/model-llm-judge.js';
import { loadNovarchConfig } from '../../../rules/load-novarch-config.js';
import { resolveUserPath } from '../../../rules/novarch-config.js';
import { replayRules } from '../../../rules/replay/replay-rules.js';
import { ExitCode } from '../../exit-codes.js';
import { paint } from '../../terminal-style.js';
import {
  GlobalOptionsSchema,
  type OperatorContext,
  parseCommandOptions,
  type RunCommand,
} from '../operator-context.js';
import { loadRulesFor } from './rules-arguments.js';
import { onRulesStore, usageOnReplayScope } from './rules-store.js';

const TestOptionsSchema = GlobalOptionsSchema.extend({
  team: z.string().optional(),
  tenant: z.string().optional(),
  since: z.string().optional(),
  withJudge: z.boolean().default(false),
  json: z.boolean().default(false),
});

/** `--since`: a date (UTC midnight) or a time with its zone, as the ISO UTC text the store compares. */
export function parseSince(value: string, command = 'test'): string {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? new Date(`${value}T00:00:00.000Z`)
    : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)
      ? new Date(value)
      : undefined;
  if (date === undefined || Number.isNaN(date.getTime())) {
    throw new OperatorUsageError(
      `novarch rules ${command}: --since: expected a date (2026-05-01, midnight UTC) or a time with its zone (2026-05-01T12:00:00Z); got ${JSON.stringify(value)}.`,
    );
  }
  return date.toISOString();
}

/** The LLM judge of `--config` for `--with-judge`, or a usage error saying what is missing. */
export async function llmJudgeOf(
  options: { withJudge: boolean; config?: string | undefined },
  context: OperatorContext,
): Promise<ModelLlmJudge | undefined> {
  if (!options.withJudge) return undefined;
  if (options.config === undefined) {
    throw new OperatorUsageError(
      '--with-judge needs an LLM judge: pass --config FILE, a Novarch configuration whose judge: section names it.',
    );
  }
  const configFile = resolveUserPath(options.config, context.cwd, context.homeDirectory);
  const config = await loadNovarchConfig(configFile, { homeDirectory: context.homeDirectory });
  if (config.judge === undefined) {
    throw new OperatorUsageError(
      `--with-judge: ${configFile} has no judge: section; add one (see the README, "The LLM judge").`,
    );
  }
  return new ModelLlmJudge({ ...config.judge, env: context.env });
}

/**
 * `novarch rules test FILE`: replays recorded decisions under a changed rules file. Always on a
 * store (replay reads the recorded sessions, which no route serves): `--server` is refused.
 */
export function registerRulesTestCommand(rules: Command, run: RunCommand, context: OperatorContext): void {
  rules
    .command('test <file>')
    .description(
      'replay: re-judge recorded decisions under a changed rules file and list those that would change',
    )
    .option('--since <date>', 'only actions since this date (2026-05-01) or time (2026-05-01T12:00:00Z)')
    .option(
      '--team <team>',
      "the team whose sessions are replayed (default: the file's team:; another one is refused)",
    )
    .option(
      '--tenant <tenant>',
      "the tenant whose decisions are replayed (needed when the team's sessions belong to several)",
    )
    .option('--with-judge', 'also re-judge rules without a condition with the LLM judge of --config FILE')
    .option('--json', 'print JSON instead of text')
    .addHelpText(
      'after',
      '\nExit codes of rules test: 0 no decision would change, 4 some would change or were not re-judged\n(LLM rules without --with-judge), 2 usage error, 1 the store could not be read.',
    )
    .action((file: string, _options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(TestOptionsSchema, command);
        const ruleSet = await loadRulesFor(file, context, options.team);
        const since = options.since === undefined ? undefined : parseSince(options.since);
        const llmJudge = await llmJudgeOf(options, context);
        const report = await onRulesStore(options, context, (store) =>
          replayRules({
            store,
            ruleSet,
            ...(since === undefined ? {} : { since }),
            ...(options.tenant === undefined ? {} : { tenantId: options.tenant }),
            ...(llmJudge === undefined ? {} : { llmJudge }),
          }).catch(usageOnReplayScope),
        );
        const name = ruleSet.file ?? file;
        context.stdout.write(
          options.json
            ? formatJson(replayReportJson(report))
            : paint(formatReplayReport(report, name), context.style),
        );
        return report.changed.length > 0 || report.notRejudged.length > 0 ? ExitCode.changes : ExitCode.ok;
      }),
    );
}
