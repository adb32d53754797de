import { type Command, Option } from 'commander';
import { z } from 'zod';
import { OperatorUsageError } from '../../errors.js';
import { formatDecidedHold, formatHoldDetail } from '../../format/format-hold-detail.js';
import { formatHoldsTable } from '../../format/format-holds.js';
import { formatJson } from '../../format/format-table.js';
import { PENDING_HOLD_STATES, WAITER_STALE_AFTER_MS } from '../../model/hold-state.js';
import { WAITER_STALE_AFTER_VARIABLE } from '../../model/waiter-timing.js';
import { decideHoldAsOperator } from '../../operations/decide-hold-as-operator.js';
import { listHoldSummaries, loadHoldDetail } from '../../operations/hold-operations.js';
import { isRecord } from '../../support.js';
import { ExitCode } from '../exit-codes.js';
import { paint } from '../terminal-style.js';
import {
  GlobalOptionsSchema,
  type OperatorContext,
  onStore,
  operatorName,
  parseCommandOptions,
  type RunCommand,
  refuseIfGoverned,
  serverClient,
} from './operator-context.js';

const HOLD_STATUSES = ['pending', 'approved', 'denied', 'skipped', 'timed_out'] as const;

const ListOptionsSchema = GlobalOptionsSchema.extend({
  status: z.enum([...HOLD_STATUSES, ...PENDING_HOLD_STATES]).optional(),
  session: z.string().optional(),
  json: z.boolean().default(false),
});
const ShowOptionsSchema = GlobalOptionsSchema.extend({ json: z.boolean().default(false) });
const DecideOptionsSchema = GlobalOptionsSchema.extend({
  rationale: z.string().optional(),
  operator: z.string().optional(),
  force: z.boolean().default(false),
  input: z.string().optional(),
});

/** `--input JSON`: the whole tool input the approved write runs with, as a JSON object. */
function parseEditedInput(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  const example = `e.g. --input '{"order_id":"A-1","amount":400}'`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new OperatorUsageError(
      `--input is not JSON (${error instanceof Error ? error.message : String(error)}): pass the whole tool input as a JSON object, ${example}.`,
    );
  }
  if (!isRecord(value))
    throw new OperatorUsageError(
      `--input must be a JSON object (the tool's whole input), got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}: ${example}.`,
    );
  return value;
}

const DECISIONS = [
  { name: 'approve', status: 'approved', summary: 'approve a hold an agent waits on: the write runs' },
  {
    name: 'deny',
    status: 'denied',
    summary: 'deny a hold an agent waits on: the write is refused (needs --rationale)',
  },
  {
    name: 'skip',
    status: 'skipped',
    summary: 'skip a hold an agent waits on: the write is refused, the session latched',
  },
] as const;

const STATES_HELP = `
A pending hold is waiting (its agent process checked in within the last ${WAITER_STALE_AFTER_MS / 1000} s, or
$${WAITER_STALE_AFTER_VARIABLE} ms), abandoned (no check-in for longer: its agent process stopped) or
expired (past its deadline).`;

const FORCE_HELP = `${STATES_HELP}
Deciding an abandoned or expired hold is refused (exit 3): nothing would run the write. The agent
must retry the action. --force closes such a hold instead: it is stored as timed_out under your
name, with your decision and rationale in its rationale, and nothing runs.`;

/** `novarch holds list|show|approve|deny|skip`. */
export function registerHoldsCommand(program: Command, run: RunCommand, context: OperatorContext): void {
  const holds = program.command('holds').description('list, inspect and decide held writes');
  registerHoldsList(holds, run, context);
  registerHoldsShow(holds, run, context);
  for (const decision of DECISIONS) registerHoldDecision(holds, decision, run, context);
}

function registerHoldsList(holds: Command, run: RunCommand, context: OperatorContext): void {
  holds
    .command('list')
    .description('list holds, oldest first')
    .addOption(
      new Option('--status <status>', 'only holds with this status, or pending holds in this state').choices([
        ...HOLD_STATUSES,
        ...PENDING_HOLD_STATES,
      ]),
    )
    .option('--session <id>', 'only holds of this session')
    .option('--json', 'print JSON instead of a table (pending holds carry their "state")')
    .addHelpText('after', STATES_HELP)
    .action((_options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(ListOptionsSchema, command);
        const filter = { status: options.status, sessionId: options.session };
        const remote = serverClient(options, context);
        const summaries = remote
          ? await remote.call((client) => client.listHolds(filter))
          : await onStore(options, context, (store) => listHoldSummaries(store, filter, context.now()));
        context.stdout.write(
          options.json ? formatJson(summaries) : paint(formatHoldsTable(summaries), context.style),
        );
        return ExitCode.ok;
      }),
    );
}

function registerHoldsShow(holds: Command, run: RunCommand, context: OperatorContext): void {
  holds
    .command('show')
    .description('show a hold: its action, session, verdict citations and the cited evidence')
    .argument('<hold-id>', 'the hold, e.g. hold_0b7f…')
    .option('--json', 'print JSON instead of text')
    .action((holdId: string, _options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(ShowOptionsSchema, command);
        const remote = serverClient(options, context);
        const detail = remote
          ? await remote.call((client) => client.showHold(holdId))
          : await onStore(options, context, (store, location) =>
              loadHoldDetail(store, holdId, location.path, context.now()),
            );
        context.stdout.write(
          options.json ? formatJson(detail) : paint(formatHoldDetail(detail), context.style),
        );
        return ExitCode.ok;
      }),
    );
}

/** `novarch holds approve|deny|skip <hold-id>`: one decision, on the store or through the server. */
function registerHoldDecision(
  holds: Command,
  decision: (typeof DECISIONS)[number],
  run: RunCommand,
  context: OperatorContext,
): void {
  holds
    .command(decision.name)
    .description(decision.summary)
    .argument('<hold-id>', 'the hold, e.g. hold_0b7f…')
    .option('--rationale <text>', 'why (the agent sees it on a deny)')
    .option('--operator <name>', 'who decides (default: $USER)')
    .option('--force', 'close an abandoned or expired hold anyway: stored as timed_out, nothing runs')
    .option(
      '--input <json>',
      'approve only: the tool input the write runs with instead of the agent’s (JSON object; the gate checks it against the tool’s schema and the rules judge it again)',
    )
    .addHelpText('after', FORCE_HELP)
    .action((holdId: string, _options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(DecideOptionsSchema, command);
        refuseIfGoverned(context, `${decision.name} its own holds`);
        const input = parseEditedInput(options.input);
        const remote = serverClient(options, context);
        const decided = remote
          ? await remote.call((client) =>
              client.decideHold(holdId, {
                decision: decision.name,
                rationale: options.rationale,
                force: options.force,
                input,
              }),
            )
          : await onStore(options, context, (store, location) =>
              decideHoldAsOperator(
                store,
                {
                  holdId,
                  status: decision.status,
                  operator: operatorName(options.operator, context),
                  rationale: options.rationale,
                  force: options.force,
                  input,
                },
                location.path,
                context.now(),
              ),
            );
        context.stdout.write(paint(formatDecidedHold(decided), context.style));
        return ExitCode.ok;
      }),
    );
}
