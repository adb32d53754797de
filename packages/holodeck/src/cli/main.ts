#!/usr/bin/env node
import { Command } from 'commander';
import { ConfigError } from '../errors.js';
import { registerChatCommand } from './commands/chat-command.js';
import { registerSchemaCommand } from './commands/schema-command.js';
import { registerTestCommand } from './commands/test-command.js';
import { registerValidateCommand } from './commands/validate-command.js';
import { ExitCode, type ExitCodeValue, exitCodeFor } from './exit-codes.js';
import { createStyle } from './terminal-style.js';

const EXIT_CODES_HELP = `
Exit codes:
  0  success (test: every case passed)
  1  test: some cases failed or errored; otherwise an internal error (a bug: rerun with --debug)
  2  configuration, credential or installation error (nothing was run)
  3  chat: the agent run failed (API error, crash, max_turns, invalid structured output);
     test: the run was aborted`;

/** The only place that exits the process (with stopQuietlyWhenStdoutCloses). */
async function main(argv: string[]): Promise<void> {
  const style = createStyle(process.stderr);
  stopQuietlyWhenStdoutCloses();
  const debug = argv.includes('--debug');
  let exitCode: ExitCodeValue = ExitCode.ok;
  let pending: Promise<ExitCodeValue> | undefined;
  const run = (code: Promise<ExitCodeValue>) => {
    pending = code;
  };

  const program = new Command()
    .name('holodeck')
    .description('Define an AI agent in one agent.yaml, then validate it, test it and chat with it.')
    .version('0.1.0')
    .option('--debug', 'print stack traces for errors')
    .addHelpText('after', EXIT_CODES_HELP)
    .showHelpAfterError()
    .exitOverride();
  registerValidateCommand(program, run, style);
  registerSchemaCommand(program, run);
  registerChatCommand(program, run, style);
  registerTestCommand(program, run, style);
  for (const command of program.commands) command.addHelpText('after', EXIT_CODES_HELP);

  try {
    await program.parseAsync(argv);
    if (pending) exitCode = await pending;
  } catch (error) {
    if (isCommanderExit(error)) {
      exitCode = error.exitCode === 0 ? ExitCode.ok : ExitCode.configuration;
    } else {
      exitCode = exitCodeFor(error);
      const label = error instanceof ConfigError ? '' : `${style.red('error')} `;
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`${label}${message}\n`);
      if (exitCode === ExitCode.internal)
        process.stderr.write('This is a bug in holodeck; rerun with --debug and report it.\n');
      if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    }
  }
  process.exitCode = exitCode;
}

/**
 * `holodeck schema | head -5`: the reader closing the pipe early is not an error, so no EPIPE
 * stack trace; the process stops as `head` expects. Other stdout errors stay fatal.
 */
function stopQuietlyWhenStdoutCloses() {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? ExitCode.ok);
  });
}

function isCommanderExit(error: unknown): error is { exitCode: number; code: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    String(error.code).startsWith('commander.')
  );
}

// Not top-level await: the bin runs this file bundled as CommonJS (scripts/bundle-cli.mjs).
void main(process.argv);
