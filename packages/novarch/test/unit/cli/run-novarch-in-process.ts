import { buildProgram } from '../../../src/cli/build-program.js';
import type { OperatorContext } from '../../../src/cli/commands/operator-context.js';
import { type ExitCodeValue, exitCodeFor } from '../../../src/cli/exit-codes.js';
import { PLAIN_STYLE } from '../../../src/cli/terminal-style.js';

/** What a `novarch` command printed and how it exited. */
export interface CliResult {
  code: number;
  stdout: string;
  /** The error message `main` would print after `error: `, if any. */
  error?: string;
}

/**
 * Runs `novarch ARGS` in this process, as `main.ts` does (errors mapped by `exitCodeFor`), with
 * its own environment and working folder: fast enough for many cases per test.
 */
export async function runNovarch(
  args: readonly string[],
  options: {
    env?: Record<string, string | undefined>;
    cwd: string;
    homeDirectory?: string;
    /** The CLI's clock (default the real one): lets a test see a hold as it is later. */
    now?: () => Date;
  },
): Promise<CliResult> {
  let stdout = '';
  const context: OperatorContext = {
    stdout: { write: (text: string) => (stdout += text) },
    env: options.env ?? {},
    cwd: options.cwd,
    homeDirectory: options.homeDirectory ?? options.cwd,
    style: PLAIN_STYLE,
    now: options.now ?? (() => new Date()),
    governedSession: () => undefined,
  };
  let pending: (() => Promise<ExitCodeValue>) | undefined;
  const program = buildProgram((work) => {
    pending = work;
  }, context);
  program.configureOutput({ writeOut: (text) => (stdout += text), writeErr: () => {} });
  try {
    await program.parseAsync(['node', 'novarch', ...args]);
    return { code: pending ? await pending() : 0, stdout };
  } catch (error) {
    const commander = typeof error === 'object' && error !== null && 'exitCode' in error && 'code' in error;
    if (commander && String(error.code).startsWith('commander.')) {
      return {
        code: error.exitCode === 0 ? 0 : 2,
        stdout,
        error: error instanceof Error ? error.message : String(error),
      };
    }
    return {
      code: exitCodeFor(error),
      stdout,
      error: error instanceof Error ? error.message : String(error),
    };
  }
}
