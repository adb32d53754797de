import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { OperatorUsageError, RulesError } from '../../errors.js';
import { formatJson } from '../../format/format-table.js';
import {
  formatReplayReport,
  formatRuleSetDiff,
  formatRuleSetsTable,
  formatServerRuleSetsTable,
  replayReportJson,
  shortHash,
} from '../../format/rules-format.js';
import type { NovarchDatabaseStore } from '../../model/novarch-store.js';
import type { StoredRuleSet } from '../../model/stored-rule-set.js';
import { closestIds } from '../../operations/closest-ids.js';
import { ModelLlmJudge } from '../../rules/llm/model-llm-judge.js';
import { loadNovarchConfig } from '../../rules/load-novarch-config.js';
import { validateRulesFile } from '../../rules/load-rules-file.js';
import { resolveUserPath } from '../../rules/novarch-config.js';
import { ReplayScopeError, replayRules } from '../../rules/replay/replay-rules.js';
import type { RuleSet } from '../../rules/rule-set.js';
import { pushRules } from '../../rules/stored-rules.js';
import { ExitCode } from '../exit-codes.js';
import { paint } from '../terminal-style.js';
import {
  GlobalOptionsSchema,
  type OperatorContext,
  operatorName,
  parseCommandOptions,
  type RunCommand,
  type ServerOperations,
  serverClient,
} from './operator-context.js';
import { onRulesStore } from './rules-store.js';

const versionArgument = z
  .string()
  .regex(/^v?[1-9][0-9]*$/, 'expected a version number such as 3 or v3')
  .transform((value) => Number(value.replace(/^v/, '')));

const PushOptionsSchema = GlobalOptionsSchema.extend({
  team: z.string().optional(),
  tenant: z.string().optional(),
  operator: z.string().optional(),
  json: z.boolean().default(false),
});
const ListOptionsSchema = GlobalOptionsSchema.extend({
  team: z.string().optional(),
  tenant: z.string().optional(),
  json: z.boolean().default(false),
});
const ShowOptionsSchema = GlobalOptionsSchema.extend({
  tenant: z.string().optional(),
  json: z.boolean().default(false),
});
const DiffOptionsSchema = GlobalOptionsSchema.extend({ tenant: z.string().optional() });

const TENANT_HELP = 'with --server: the tenant whose team it is (the rules of a tenant are its own)';

/**
 * With `--server`: the server client and the tenant (`--tenant`, required when `needsTenant`).
 * Without: undefined, and `--tenant` is refused (a store's rules pushed directly have no tenant).
 */
function remoteRules(
  command: string,
  options: z.output<typeof GlobalOptionsSchema> & {
    tenant?: string | undefined;
    operator?: string | undefined;
  },
  context: OperatorContext,
  needsTenant: boolean,
): { server: ServerOperations; tenant: string | undefined } | undefined {
  const server = serverClient(options, context);
  const tenant = options.tenant?.trim() || undefined;
  if (server === undefined) {
    if (options.tenant !== undefined)
      throw new OperatorUsageError(
        `novarch rules ${command}: --tenant works with --server only: rules pushed to a store directly have no tenant (a server applies them to that team of every tenant without its own). Add --server URL, or drop --tenant.`,
      );
    return undefined;
  }
  if (needsTenant && tenant === undefined)
    throw new OperatorUsageError(
      `novarch rules ${command} --server: pass --tenant TENANT, the tenant whose team's rules these are (a server keeps each tenant's rules apart).`,
    );
  return { server, tenant };
}
const TestOptionsSchema = GlobalOptionsSchema.extend({
  team: z.string().optional(),
  tenant: z.string().optional(),
  since: z.string().optional(),
  withJudge: z.boolean().default(false),
  json: z.boolean().default(false),
});

/** Loads a rules file for a command, or throws its RulesError; `team` must be the file's. */
async function loadRulesFor(
  file: string,
  context: OperatorContext,
  team: string | undefined,
): Promise<RuleSet> {
  const absolute = resolveUserPath(file, context.cwd, context.homeDirectory);
  const validation = await validateRulesFile(absolute);
  if (validation.ruleSet === undefined) throw new RulesError(validation.issues);
  if (team !== undefined && team !== validation.ruleSet.team) {
    throw new OperatorUsageError(
      `--team ${team}: ${absolute} holds the rules of team "${validation.ruleSet.team}" (its team: key). Pass --team ${validation.ruleSet.team}, or change team: in the file.`,
    );
  }
  return validation.ruleSet;
}

/** A version argument (`3` or `v3`), or a usage error naming the command. */
function parseVersion(command: string, value: string): number {
  const parsed = versionArgument.safeParse(value);
  if (!parsed.success) {
    throw new OperatorUsageError(
      `novarch rules ${command}: expected a version number such as 3 or v3; got ${JSON.stringify(value)}.`,
    );
  }
  return parsed.data;
}

/** `--since`: a date (UTC midnight) or a time with its zone, as the ISO UTC text the store compares. */
function parseSince(value: string): string {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? new Date(`${value}T00:00:00.000Z`)
    : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)
      ? new Date(value)
      : undefined;
  if (date === undefined || Number.isNaN(date.getTime())) {
    throw new OperatorUsageError(
      `novarch rules test: --since: expected a date (2026-05-01, midnight UTC) or a time with its zone (2026-05-01T12:00:00Z); got ${JSON.stringify(value)}.`,
    );
  }
  return date.toISOString();
}

/** The team's stored version, or a usage error listing what the store has. */
async function storedVersion(
  store: NovarchDatabaseStore,
  where: string,
  team: string,
  version: number | undefined,
): Promise<StoredRuleSet> {
  const found = await store.getRuleSet(team, version);
  if (found !== undefined) return found;
  const versions = await store.listRuleSets({ team });
  if (versions.length === 0) {
    const teams = [...new Set((await store.listRuleSets()).map((set) => set.team))];
    const closest =
      teams.length === 0
        ? ' It has no rules yet.'
        : ` Teams with rules: ${closestIds(team, teams).join(', ')}.`;
    throw new OperatorUsageError(`No rules of team "${team}" in the store at ${where}.${closest}`);
  }
  throw new OperatorUsageError(
    `Team ${team} has no version ${version} in the store at ${where}: its versions are ${versions.map((set) => `v${set.version}`).join(', ')}.`,
  );
}

/** `novarch rules push|list|show|diff|test`. */
export function registerRulesCommand(program: Command, run: RunCommand, context: OperatorContext): void {
  const rules = program
    .command('rules')
    .description("push the teams' rules files as versioned data, read and compare versions, replay a change");

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
        const remote = remoteRules('push', options, context, true);
        const ruleSet = await loadRulesFor(file, context, options.team);
        const absolute = ruleSet.file ?? path.resolve(context.cwd, file);
        if (remote !== undefined) {
          const source = await readFile(absolute, 'utf8');
          const tenant = remote.tenant ?? '';
          const { created, ruleSet: stored } = await remote.server.call((client) =>
            client.rules().push(tenant, ruleSet.team, source),
          );
          const where = `${stored.tenantId}/${stored.team} v${stored.version}`;
          context.stdout.write(
            options.json
              ? formatJson({ created, ...stored })
              : created
                ? `Pushed ${absolute} to ${remote.server.client.url} as ${where} (${shortHash(stored.contentHash)}, by ${stored.pushedBy}).\n`
                : `Unchanged: ${absolute} is ${where} on ${remote.server.client.url} already (${shortHash(stored.contentHash)}); nothing pushed.\n`,
          );
          return ExitCode.ok;
        }
        const pushedBy = operatorName(options.operator, context);
        if (pushedBy.trim() === '')
          throw new OperatorUsageError('No operator name: pass --operator NAME (or set $USER).');
        const source = await readFile(absolute, 'utf8');
        const result = await onRulesStore(options, context, (store) =>
          pushRules(store, { source, name: absolute, team: ruleSet.team, pushedBy }),
        );
        const { ruleSet: stored, created } = result;
        if (options.json) {
          const { content: _content, ...summary } = stored;
          context.stdout.write(formatJson({ created, ...summary }));
        } else {
          context.stdout.write(
            created
              ? `Pushed ${absolute} as ${stored.team} v${stored.version} (${shortHash(stored.contentHash)}, by ${stored.pushedBy}).\n`
              : `Unchanged: ${absolute} is ${stored.team} v${stored.version} already (${shortHash(stored.contentHash)}); nothing pushed.\n`,
          );
        }
        return ExitCode.ok;
      }),
    );

  rules
    .command('list')
    .description('list the pushed versions, by team then version')
    .option('--team <team>', 'only the versions of this team')
    .option('--tenant <tenant>', "with --server: only this tenant's teams")
    .option('--json', 'print JSON instead of a table')
    .action((_options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(ListOptionsSchema, command);
        const remote = remoteRules('list', options, context, false);
        if (remote !== undefined) {
          const listed = await remote.server.call((client) =>
            client.rules().list({ tenantId: remote.tenant, teamId: options.team }),
          );
          context.stdout.write(
            options.json ? formatJson(listed) : paint(formatServerRuleSetsTable(listed), context.style),
          );
          return ExitCode.ok;
        }
        const sets = await onRulesStore(options, context, (store) =>
          store.listRuleSets(options.team === undefined ? {} : { team: options.team }),
        );
        context.stdout.write(
          options.json ? formatJson(sets) : paint(formatRuleSetsTable(sets), context.style),
        );
        return ExitCode.ok;
      }),
    );

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
        const remote = remoteRules('show', options, context, true);
        if (remote !== undefined) {
          const tenant = remote.tenant ?? '';
          const shown = await remote.server.call((client) => client.rules().show(tenant, team, wanted));
          context.stdout.write(options.json ? formatJson(shown) : shown.content);
          return ExitCode.ok;
        }
        const stored = await onRulesStore(options, context, (store, where) =>
          storedVersion(store, where, team, wanted),
        );
        // Without --json the text exactly as stored, so `rules show T > rules.yaml` gives the file back.
        context.stdout.write(options.json ? formatJson(stored) : stored.content);
        return ExitCode.ok;
      }),
    );

  rules
    .command('diff <team> <from> <to>')
    .description('a line diff between two versions of a team’s rules (e.g. rules diff cs-ops 2 3)')
    .option('--tenant <tenant>', TENANT_HELP)
    .action((team: string, from: string, to: string, _options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(DiffOptionsSchema, command);
        const versions = [from, to].map((value) => parseVersion('diff', value));
        const remote = remoteRules('diff', options, context, true);
        if (remote !== undefined) {
          const tenant = remote.tenant ?? '';
          const [first = 1, second = 1] = versions;
          const diffed = await remote.server.call((client) =>
            client.rules().diff(tenant, team, first, second),
          );
          const named = (set: typeof diffed.from) => ({ ...set, team: `${set.tenantId}/${set.team}` });
          context.stdout.write(paint(formatRuleSetDiff(named(diffed.from), named(diffed.to)), context.style));
          return ExitCode.ok;
        }
        const [before, after] = await onRulesStore(options, context, (store, where) =>
          Promise.all(versions.map((version) => storedVersion(store, where, team, version))),
        );
        if (before === undefined || after === undefined) throw new Error('two versions were read');
        context.stdout.write(paint(formatRuleSetDiff(before, after), context.style));
        return ExitCode.ok;
      }),
    );

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
        let llmJudge: ModelLlmJudge | undefined;
        if (options.withJudge) {
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
          llmJudge = new ModelLlmJudge({ ...config.judge, env: context.env });
        }
        const report = await onRulesStore(options, context, (store) =>
          replayRules({
            store,
            ruleSet,
            ...(since === undefined ? {} : { since }),
            ...(options.tenant === undefined ? {} : { tenantId: options.tenant }),
            ...(llmJudge === undefined ? {} : { llmJudge }),
          }).catch((error: unknown) => {
            if (error instanceof ReplayScopeError) throw new OperatorUsageError(error.message);
            throw error;
          }),
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
