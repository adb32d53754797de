import os from 'node:os';
import type { Command } from 'commander';
import { z } from 'zod';
import type { NovarchStore } from '../../model/novarch-store.js';
import type { ExitCodeValue } from '../exit-codes.js';
import { withOperatorStore } from '../open-operator-store.js';
import {
  checkOperatorName,
  governedSessionOf,
  refuseInsideGovernedSession,
} from '../operations/governed-process.js';
import { OperatorUsageError } from '../operator-errors.js';
import { type ResolvedStorePath, resolveStorePath } from '../resolve-store-path.js';
import type { Style } from '../terminal-style.js';

/** What commands read and write besides the store: the process's, or a test's. */
export interface OperatorContext {
  stdout: { write(text: string): unknown };
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  homeDirectory: string;
  /** Colours for stdout (off when NO_COLOR is set or stdout is not a TTY). */
  style: Style;
  /** The time, for telling waiting holds from abandoned and expired ones. */
  now(): Date;
  /**
   * The governed session this process runs inside, if any (default: `NOVARCH_GOVERNED_SESSION`
   * in `env` or in an ancestor process's environment): decisions are refused there.
   */
  governedSession?: () => string | undefined;
}

/** Refuses the decision `what` when this process runs inside a governed session (exit 3). */
export function refuseIfGoverned(context: OperatorContext, what: string): void {
  refuseInsideGovernedSession((context.governedSession ?? (() => governedSessionOf(context.env)))(), what);
}

/** Hands a command's work to the entry point, which awaits it and maps errors to exit codes. */
export type RunCommand = (work: () => Promise<ExitCodeValue>) => void;

/** The options every command accepts (declared on the program). */
export const GlobalOptionsSchema = z.object({
  store: z.string().optional(),
  config: z.string().optional(),
  debug: z.boolean().optional(),
});

/** Validates a command's flags (its own and the program's) into a typed options object. */
export function parseCommandOptions<Schema extends z.ZodType>(
  schema: Schema,
  command: Command,
): z.output<Schema> {
  const parsed = schema.safeParse(command.optsWithGlobals());
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const flag = issue.path.map((part) => `--${String(part)}`).join(' ');
    return `${flag ? `${flag}: ` : ''}${issue.message}`;
  });
  throw new OperatorUsageError(`novarch ${command.name()}: ${problems.join('; ')}`);
}

/** A whole number ≥ 1 given as a flag. */
export const positiveIntegerFlag = z
  .string()
  .regex(/^[1-9][0-9]*$/, 'expected a whole number of 1 or more')
  .transform(Number);

/**
 * The operator's name: `--operator`, else `$USER`, else `$LOGNAME`, else the OS account name.
 * Names Novarch reserves for itself (`novarch`, …) are refused. The store also records the OS
 * account of the deciding process, whatever name is given.
 */
export function operatorName(flag: string | undefined, context: OperatorContext): string {
  const name = flag ?? (context.env.USER || context.env.LOGNAME || accountName());
  return name.trim() === '' ? name : checkOperatorName(name);
}

function accountName(): string {
  try {
    return os.userInfo().username;
  } catch {
    // No passwd entry (e.g. an arbitrary uid in a container): the caller asks for --operator.
    return '';
  }
}

/** Resolves the store from the flags and runs `work` on it, closing it afterwards. */
export async function onStore<T>(
  options: z.output<typeof GlobalOptionsSchema>,
  context: OperatorContext,
  work: (store: NovarchStore, location: ResolvedStorePath) => Promise<T>,
): Promise<T> {
  const location = await resolveStorePath(options, {
    env: context.env,
    cwd: context.cwd,
    homeDirectory: context.homeDirectory,
  });
  return withOperatorStore(location, (store) => work(store, location));
}
