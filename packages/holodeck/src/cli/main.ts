#!/usr/bin/env node
import { Command } from 'commander';
import { ConfigError, InterruptedError } from '../errors.js';
import { holodeckVersion } from '../holodeck-version.js';
import { userModulesLoading } from '../load-user-module.js';
import type { CommandContext } from './command-context.js';
import { registerChatCommand } from './commands/chat-command.js';
import { registerIngestCommand } from './commands/ingest-command.js';
import { registerInitCommand } from './commands/init-command.js';
import { registerJudgeCommand } from './commands/judge-command.js';
import { registerSchemaCommand } from './commands/schema-command.js';
import { registerServeCommand } from './commands/serve-command.js';
import { registerTestCommand } from './commands/test-command.js';
import { registerValidateCommand } from './commands/validate-command.js';
import { ExitCode, type ExitCodeValue, exitCodeFor, exitCodesHelp } from './exit-codes.js';
import { createStyle, type Style } from './terminal-style.js';

const EXIT_CODES_HELP = exitCodesHelp();

/**
 * The only place that exits the process (with stopQuietlyWhenStdoutCloses and the second
 * interrupt). It exits as soon as the command's work is done, with its code, whatever a user
 * module left running (a database pool, a keep-alive agent, a module-level setInterval): the
 * backend already awaited every tool module's `close()` at teardown, and nothing else is owed.
 */
async function main(argv: string[]): Promise<void> {
  const style = createStyle(process.stderr);
  neverEndWithoutOurCode(style);
  stopQuietlyWhenStdoutCloses();
  const debug = argv.includes('--debug');
  let exitCode: ExitCodeValue = ExitCode.ok;
  let pending: Promise<ExitCodeValue> | undefined;
  const context: CommandContext = {
    style,
    run: (code) => {
      pending = code;
    },
    interruptible: (stopping) => watchInterrupts(style, stopping),
  };

  const program = new Command()
    .name('holodeck')
    .description('Define an AI agent in one agent.yaml, then validate it, test it and chat with it.')
    .version(holodeckVersion())
    .option('--debug', 'print stack traces for errors')
    .addHelpText('after', EXIT_CODES_HELP)
    .showHelpAfterError()
    .exitOverride();
  registerInitCommand(program, context);
  registerValidateCommand(program, context);
  registerSchemaCommand(program, context);
  registerChatCommand(program, context);
  registerTestCommand(program, context);
  registerJudgeCommand(program, context);
  registerIngestCommand(program, context);
  registerServeCommand(program, context);
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
      if (error instanceof InterruptedError) process.stderr.write(`${style.yellow('stopped')} `);
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`${label}${message}\n`);
      if (exitCode === ExitCode.internal)
        process.stderr.write('This is a bug in holodeck; rerun with --debug and report it.\n');
      if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    }
  }
  await exitWhenFlushed(exitCode);
}

/** True once holodeck itself decided how the process ends (its code is set). */
let exitDecided = false;

/** The only way holodeck ends the process: with a code it chose. */
function exitWith(code: number): never {
  exitDecided = true;
  process.exit(code);
}

/**
 * A command must never end without its own exit code: a user module that calls process.exit(0)
 * while it loads, or anything else that ends the process before the command finished, turns into
 * exit 4 with a line saying what happened (and which module was loading), not a silent 0 that
 * reads green in CI.
 */
function neverEndWithoutOurCode(style: Style): void {
  process.on('exit', (code) => {
    if (exitDecided) return;
    const loading = userModulesLoading();
    const cause = loading.length
      ? `while loading ${loading.join(', ')} (process.exit(${code}) or the like in that module)`
      : `with code ${code} before its command finished`;
    process.stderr.write(`${style.red('error')} holodeck ended ${cause}; treated as exit 4\n`);
    process.exitCode = ExitCode.internal;
  });
}

/** Exits once stdout and stderr have handed over what was written (pipes are async on macOS). */
async function exitWhenFlushed(code: ExitCodeValue): Promise<never> {
  exitDecided = true;
  process.exitCode = code;
  await Promise.all(
    [process.stdout, process.stderr].map(
      (stream) =>
        new Promise<void>((resolve) => {
          if (stream.destroyed || !stream.writable) resolve();
          else stream.write('', () => resolve());
        }),
    ),
  );
  return exitWith(code);
}

/**
 * SIGINT (Ctrl+C) and SIGTERM for a command that can stop cleanly: the first says it is stopping
 * and aborts the returned signal (the command then ends its runs, reports and exits 130); a
 * second exits at once. Either way no `claude` process outlives holodeck: the Claude backend
 * kills the ones still running when the process exits.
 */
function watchInterrupts(style: Style, stopping: string): AbortSignal {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      process.stderr.write(`${style.yellow('stopped')} at once (${signal} again)\n`);
      exitWith(ExitCode.interrupted);
    }
    // Still preparing: a user module that is loading cannot be stopped, so stop the command.
    const loading = userModulesLoading();
    if (loading.length) {
      process.stderr.write(`${style.yellow('stopped')} (${signal}) while loading ${loading.join(', ')}\n`);
      exitWith(ExitCode.interrupted);
    }
    process.stderr.write(
      `\n${style.yellow('stopping')} (${signal}): ${stopping}; press Ctrl+C again to quit at once\n`,
    );
    controller.abort(new InterruptedError(`interrupted by ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return controller.signal;
}

/**
 * `holodeck schema | head -5`: the reader closing the pipe early is not an error, so no EPIPE
 * stack trace; the process stops as `head` expects. Other stdout errors stay fatal.
 */
function stopQuietlyWhenStdoutCloses() {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    exitWith(Number(process.exitCode ?? ExitCode.ok));
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
