import { type Command, Option } from 'commander';
import { z } from 'zod';
import { formatAuditTable } from '../../format/format-audit.js';
import { formatJson } from '../../format/format-table.js';
import { auditRows } from '../../operations/audit-rows.js';
import { ExitCode } from '../exit-codes.js';
import { paint } from '../terminal-style.js';
import { registerAuditChainCommands } from './audit-chain-commands.js';
import {
  GlobalOptionsSchema,
  type OperatorContext,
  onStore,
  parseCommandOptions,
  positiveIntegerFlag,
  type RunCommand,
  serverClient,
} from './operator-context.js';

const VERDICTS = ['pass', 'kill', 'hold'] as const;

const AuditOptionsSchema = GlobalOptionsSchema.extend({
  tenant: z.string().optional(),
  agent: z.string().optional(),
  session: z.string().optional(),
  verdict: z.enum(VERDICTS).optional(),
  limit: positiveIntegerFlag.optional(),
  json: z.boolean().default(false),
});

/** `novarch audit`. */
export function registerAuditCommand(program: Command, run: RunCommand, context: OperatorContext): void {
  const audit = program
    .command('audit')
    .description('the audit trail: one line per action with its verdict, rule ids and hold status')
    .option('--tenant <tenant>', 'only actions of this tenant')
    .option('--agent <agent>', 'only actions of this agent')
    .option('--session <id>', 'only actions of this session')
    .addOption(new Option('--verdict <verdict>', 'only actions with this latest verdict').choices(VERDICTS))
    .option('--limit <n>', 'only the most recent n actions (still printed oldest first)')
    .option('--json', 'print JSON instead of a table (an entry with a pending hold carries its "holdState")')
    .action((_options: unknown, command: Command) =>
      run(async () => {
        const options = parseCommandOptions(AuditOptionsSchema, command);
        const filter = {
          ...(options.tenant === undefined ? {} : { tenantId: options.tenant }),
          ...(options.agent === undefined ? {} : { agentId: options.agent }),
          ...(options.session === undefined ? {} : { sessionId: options.session }),
          ...(options.verdict === undefined ? {} : { verdict: options.verdict }),
          ...(options.limit === undefined ? {} : { limit: options.limit }),
        };
        const remote = serverClient(options, context);
        const entries = remote
          ? await remote.call((client) => client.audit(filter))
          : await onStore(options, context, (store) => store.audit(filter));
        const rows = auditRows(entries, context.now());
        context.stdout.write(options.json ? formatJson(rows) : paint(formatAuditTable(rows), context.style));
        return ExitCode.ok;
      }),
    );
  registerAuditChainCommands(audit, run, context);
}
