#!/usr/bin/env node
import os from 'node:os';
import { errorMessage } from '../support.js';
import { buildProgram } from './build-program.js';
import type { OperatorContext } from './commands/operator-context.js';
import { ExitCode, type ExitCodeValue, exitCodeFor, isExpectedError } from './exit-codes.js';
import { createStyle } from './terminal-style.js';

/**
 * `novarch audit --json | head -5`: the reader closing the pipe early is not an error, so no EPIPE
 * stack trace; the process stops as `head` expects. Other stdout errors stay fatal.
 */
function stopQuietlyWhenStdoutCloses(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? ExitCode.ok);
  });
}

/** The only place that ends the process (through `process.exitCode`, so output is flushed). */
async function main(argv: string[]): Promise<void> {
  stopQuietlyWhenStdoutCloses();
  const errorStyle = createStyle(process.stderr);
  const debug = argv.includes('--debug');
  const context: OperatorContext = {
    stdout: process.stdout,
    env: process.env,
    cwd: process.cwd(),
    homeDirectory: os.homedir(),
    style: createStyle(process.stdout),
    now: () => new Date(),
  };
  let pending: (() => Promise<ExitCodeValue>) | undefined;
  const program = buildProgram((work) => {
    pending = work;
  }, context);

  let exitCode: ExitCodeValue = ExitCode.ok;
  try {
    await program.parseAsync(argv);
    if (pending) exitCode = await pending();
  } catch (error) {
    if (isCommanderExit(error)) {
      // Commander already printed the help, version or usage error.
      exitCode = error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    } else {
      exitCode = exitCodeFor(error);
      const message = errorMessage(error);
      process.stderr.write(`${errorStyle.red('error:')} ${message}\n`);
      if (!isExpectedError(error)) {
        process.stderr.write('This is a bug in novarch; rerun with --debug and report it.\n');
      }
      if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    }
  }
  process.exitCode = exitCode;
}

function isCommanderExit(error: unknown): error is { exitCode: number; code: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    'exitCode' in error &&
    typeof error.exitCode === 'number' &&
    String(error.code).startsWith('commander.')
  );
}

await main(process.argv);
