import type { Command } from 'commander';
import { z } from 'zod';
import { OperatorUsageError } from '../../../errors.js';
import { formatJson } from '../../../format/format-table.js';
import { formatRulesCalibration } from '../../../format/rule-calibration-format.js';
import { storedVersion } from '../../../operations/rules-service.js';
import { calibrateRules, type RulesCalibrationReport } from '../../../rules/calibrate/calibrate-rules.js';
import { appendLabelEntry, readLabelsFile } from '../../../rules/calibrate/rule-labels-file.js';
import { resolveUserPath } from '../../../rules/novarch-config.js';
import type { RuleSet } from '../../../rules/rule-set.js';
import { ruleSetFromStored } from '../../../rules/stored-rules.js';
import { ExitCode } from '../../exit-codes.js';
import { paint } from '../../terminal-style.js';
import {
  GlobalOptionsSchema,
  type OperatorContext,
  parseCommandOptions,
  type RunCommand,
  type ServerOperations,
  serverClient,
} from '../operator-context.js';
import { loadRulesFor } from './rules-arguments.js';
import { onRulesStore, usageOnReplayScope } from './rules-store.js';
import { llmJudgeOf, parseSince } from './rules-test-command.js';

/** Where `novarch rules label` writes, and `rules calibrate` reads, labels by default. */
export const DEFAULT_LABELS_FILE = 'novarch-labels.yaml';

const CalibrateOptionsSchema = GlobalOptionsSchema.extend({
  team: z.string().optional(),
  tenant: z.string().optional(),
  since: z.string().optional(),
  labels: z.string().optional(),
  withJudge: z.boolean().default(false),
  json: z.boolean().default(false),
});
const LabelOptionsSchema = GlobalOptionsSchema.extend({
  labels: z.string().default(DEFAULT_LABELS_FILE),
  by: z.string().optional(),
  comment: z.string().optional(),
});

function refuseServer(options: { server?: string | undefined }, command: string): void {
  if (options.server !== undefined)
    throw new OperatorUsageError(
      `novarch rules ${command} works on a store, not through a server (yet): drop --server and pass --store postgres://… (the server's store) or the SQLite file.`,
    );
}

/** `novarch rules calibrate [file] --team T` and `novarch rules label <id> pass|kill`. */
export function registerRulesCalibrateCommands(
  rules: Command,
  run: RunCommand,
  context: OperatorContext,
): void {
  registerCalibrateCommand(rules, run, context);
  registerLabelCommand(rules, run, context);
}

type CalibrateOptions = z.output<typeof CalibrateOptionsSchema>;

function registerCalibrateCommand(rules: Command, run: RunCommand, context: OperatorContext): void {
  rules
    .command('calibrate [file]')
    .description(
      "measure a team's rules against human labels (decided holds, novarch rules label): per rule kappa with its interval, the confusion matrix, needless holds, passes a human reversed",
    )
    .option(
      '--team <team>',
      "the team (default: the file's team:); without a file, its latest pushed rules are used",
    )
    .option(
      '--tenant <tenant>',
      "the tenant whose decisions count (needed when the team's sessions belong to several)",
    )
    .option('--since <date>', 'only actions since this date (2026-05-01) or time (2026-05-01T12:00:00Z)')
    .option(
      '--labels <file>',
      `labels written by novarch rules label (default ${DEFAULT_LABELS_FILE}; missing: none)`,
    )
    .option('--with-judge', 'also re-judge rules without a condition with the LLM judge of --config FILE')
    .option('--json', 'print JSON instead of text')
    .addHelpText(
      'after',
      "\nWith --server URL (an admin token in $NOVARCH_TOKEN), --tenant and --team: the rules pushed to the\nserver for that tenant's team, against its decided holds, judged by the server's judge.\n" +
        '\nExit codes of rules calibrate: 0 measured, 4 some labelled actions of LLM rules were not re-judged\n(no --with-judge), 2 usage error, 1 the store could not be read.',
    )
    .action((file: string | undefined, _options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(CalibrateOptionsSchema, command);
        const server = serverClient(options, context);
        const report =
          server === undefined
            ? await calibrateOnStore(file, options, context)
            : await calibrateOnServer(server, file, options);
        context.stdout.write(
          options.json ? formatJson(report) : paint(formatRulesCalibration(report), context.style),
        );
        return report.notRejudged > 0 ? ExitCode.changes : ExitCode.ok;
      }),
    );
}

/** The rules pushed to the server for `--tenant`'s `--team`, against its decided holds, by its judge. */
async function calibrateOnServer(
  server: ServerOperations,
  file: string | undefined,
  options: CalibrateOptions,
): Promise<RulesCalibrationReport> {
  if (file !== undefined || options.labels !== undefined || options.withJudge)
    throw new OperatorUsageError(
      'novarch rules calibrate --server measures the rules pushed to the server against its decided holds, with its own judge: drop the rules file, --labels and --with-judge.',
    );
  if (options.tenant === undefined || options.team === undefined)
    throw new OperatorUsageError(
      'novarch rules calibrate --server: pass --tenant TENANT and --team TEAM (a server keeps each tenant apart).',
    );
  const { tenant, team } = options;
  const since = options.since === undefined ? undefined : parseSince(options.since, 'calibrate');
  return server.call((client) => client.rules().calibration(tenant, team, since));
}

/** The rules of `file` (or the team's latest pushed ones) against the labels and the store's decided holds. */
async function calibrateOnStore(
  file: string | undefined,
  options: CalibrateOptions,
  context: OperatorContext,
): Promise<RulesCalibrationReport> {
  if (file === undefined && options.team === undefined)
    throw new OperatorUsageError(
      'novarch rules calibrate: name the team (--team T, its latest pushed rules) or a rules file.',
    );
  const since = options.since === undefined ? undefined : parseSince(options.since, 'calibrate');
  const labelsFile = resolveUserPath(
    options.labels ?? DEFAULT_LABELS_FILE,
    context.cwd,
    context.homeDirectory,
  );
  const labels = await readLabelsFile(labelsFile);
  const llmJudge = await llmJudgeOf(options, context);
  const fromFile = file === undefined ? undefined : await loadRulesFor(file, context, options.team);
  return onRulesStore(options, context, async (store, where) => {
    const ruleSet: RuleSet =
      fromFile ?? ruleSetFromStored(await storedVersion(store, where, options.team ?? '', undefined));
    return calibrateRules({
      store,
      ruleSet,
      labels,
      ...(since === undefined ? {} : { since }),
      ...(options.tenant === undefined ? {} : { tenantId: options.tenant }),
      ...(llmJudge === undefined ? {} : { llmJudge }),
    }).catch(usageOnReplayScope);
  });
}

function registerLabelCommand(rules: Command, run: RunCommand, context: OperatorContext): void {
  rules
    .command('label <decision> <verdict>')
    .description(
      "label a recorded action (its id, or the id of its verdict) pass or kill: a human's word on the judge's decision, for novarch rules calibrate",
    )
    .option(
      '--labels <file>',
      `the labels file to append to (default ${DEFAULT_LABELS_FILE}; created when missing)`,
    )
    .option('--by <name>', 'who labels it (default: the OS user)')
    .option('--comment <text>', 'why')
    .action((decision: string, verdict: string, _options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(LabelOptionsSchema, command);
        refuseServer(options, 'label');
        if (verdict !== 'pass' && verdict !== 'kill')
          throw new OperatorUsageError(
            `novarch rules label: the verdict is pass or kill; got ${JSON.stringify(verdict)}.`,
          );
        const entry = await onRulesStore(options, context, async (store, where) => {
          const found = (await store.audit()).find(
            (candidate) =>
              candidate.action.id === decision || candidate.verdicts.some((record) => record.id === decision),
          );
          if (found === undefined)
            throw new OperatorUsageError(
              `novarch rules label: no action or verdict with id ${JSON.stringify(decision)} in the store at ${where}; novarch audit lists them.`,
            );
          return found;
        });
        const labelsFile = resolveUserPath(options.labels, context.cwd, context.homeDirectory);
        await appendLabelEntry(labelsFile, {
          action: entry.action.id,
          label: verdict,
          by: options.by ?? context.env.USER ?? undefined,
          comment: options.comment,
          at: context.now().toISOString(),
        });
        context.stdout.write(
          `labelled action ${entry.action.id} (team ${entry.session.teamId}, tenant ${entry.session.tenantId}) ${verdict} in ${labelsFile}\n`,
        );
        return ExitCode.ok;
      }),
    );
}
