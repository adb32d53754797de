import { Command } from 'commander';
import { novarchVersion } from '../novarch-version.js';
import { registerAuditCommand } from './commands/audit-command.js';
import { registerHoldsCommand } from './commands/holds-command.js';
import { registerKeysCommand } from './commands/keys-command.js';
import type { OperatorContext, RunCommand } from './commands/operator-context.js';
import { registerOperatorsCommand } from './commands/operators-command.js';
import { registerRulesCommand } from './commands/rules/rules-command.js';
import { registerServeCommand } from './commands/serve-command.js';
import { registerSessionsCommand } from './commands/sessions-command.js';
import { EXIT_CODES_HELP } from './exit-codes.js';

/** Every command and flag of `novarch`, declared only: the work is in the library. */
export function buildProgram(run: RunCommand, context: OperatorContext): Command {
  const program = new Command()
    .name('novarch')
    .description('Operate Novarch: decide held writes, kill sessions, read the audit trail.')
    .version(novarchVersion())
    .option(
      '--store <file>',
      'the Novarch store (SQLite file) to operate on; serve, keys, operators, rules: sqlite:PATH or postgres://…',
    )
    .option('--config <file>', 'a Novarch configuration file; its store.path is the store')
    .option(
      '--server <url>',
      'do holds, sessions and audit on a Novarch server (operator token in $NOVARCH_TOKEN)',
    )
    .option('--debug', 'print stack traces for errors')
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerHoldsCommand(program, run, context);
  registerSessionsCommand(program, run, context);
  registerAuditCommand(program, run, context);
  registerRulesCommand(program, run, context);
  registerServeCommand(program, run, context);
  registerKeysCommand(program, run, context);
  registerOperatorsCommand(program, run, context);
  const withExitCodes = (command: Command) => {
    command.addHelpText('after', EXIT_CODES_HELP);
    // exitOverride is copied to subcommands only when set before they are created; set it on all.
    command.exitOverride();
    for (const child of command.commands) withExitCodes(child);
  };
  withExitCodes(program);
  return program;
}
