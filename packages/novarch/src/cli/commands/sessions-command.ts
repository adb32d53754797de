import type { Command } from 'commander';
import { z } from 'zod';
import { formatKilledSession, formatSessionsTable } from '../../format/format-sessions.js';
import { formatJson } from '../../format/format-table.js';
import { killSessionAsOperator } from '../../operations/session-operations.js';
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

const ListOptionsSchema = GlobalOptionsSchema.extend({
  tenant: z.string().optional(),
  agent: z.string().optional(),
  killed: z.boolean().optional(),
  json: z.boolean().default(false),
});
const KillOptionsSchema = GlobalOptionsSchema.extend({
  reason: z.string(),
  operator: z.string().optional(),
});

/** `novarch sessions list|kill`. */
export function registerSessionsCommand(program: Command, run: RunCommand, context: OperatorContext): void {
  const sessions = program.command('sessions').description('list governed sessions, kill a running one');

  sessions
    .command('list')
    .description('list sessions, oldest first')
    .option('--tenant <tenant>', 'only sessions of this tenant')
    .option('--agent <agent>', 'only sessions of this agent')
    .option('--killed', 'only killed (latched) sessions')
    .option('--json', 'print JSON instead of a table')
    .action((_options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(ListOptionsSchema, command);
        const filter = {
          ...(options.tenant === undefined ? {} : { tenantId: options.tenant }),
          ...(options.agent === undefined ? {} : { agentId: options.agent }),
          ...(options.killed === true ? { killed: true } : {}),
        };
        const remote = serverClient(options, context);
        const found = remote
          ? await remote.call((client) => client.listSessions(filter))
          : await onStore(options, context, (store) => store.listSessions(filter));
        context.stdout.write(
          options.json ? formatJson(found) : paint(formatSessionsTable(found), context.style),
        );
        return ExitCode.ok;
      }),
    );

  sessions
    .command('kill')
    .description('latch a running session: the gate refuses its next tool call, reads included')
    .argument('<session-id>', 'the session, e.g. ses_4c1d…')
    .requiredOption('--reason <text>', 'why (stored as "operator NAME: TEXT")')
    .option('--operator <name>', 'who kills it (default: $USER)')
    .action((sessionId: string, _options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(KillOptionsSchema, command);
        refuseIfGoverned(context, 'kill sessions');
        const remote = serverClient(options, context);
        const killed = remote
          ? await remote.call((client) => client.killSession(sessionId, options.reason))
          : await onStore(options, context, (store, location) =>
              killSessionAsOperator(
                store,
                { sessionId, reason: options.reason, operator: operatorName(options.operator, context) },
                location.path,
              ),
            );
        context.stdout.write(paint(formatKilledSession(killed), context.style));
        return ExitCode.ok;
      }),
    );
}
