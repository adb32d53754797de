import os from 'node:os';
import type { Command } from 'commander';
import { z } from 'zod';
import { OperationRefusedError, OperatorUsageError } from '../../errors.js';
import type { NovarchDatabaseStore } from '../../model/novarch-store.js';
import {
  checkOperatorName,
  governedSessionOf,
  refuseInsideGovernedSession,
} from '../../operations/governed-process.js';
import { NovarchServerError } from '../../remote/novarch-http-client.js';
import { RemoteOperatorClient } from '../../remote/remote-operator-client.js';
import { errorMessage } from '../../support.js';
import type { ExitCodeValue } from '../exit-codes.js';
import { withOperatorStore } from '../open-operator-store.js';
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
  server: z.string().optional(),
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

/** The operator token of `--server` mode. */
export const OPERATOR_TOKEN_ENV = 'NOVARCH_TOKEN';

/**
 * With `--server URL`, the client that does the command on that server under the operator token
 * in `$NOVARCH_TOKEN`; otherwise undefined (the command works on a local store). Its errors are
 * the CLI's: 400/401/403/404 exit 2, 409 exit 3, unreachable or 5xx exit 1.
 */
export function serverClient(
  options: z.output<typeof GlobalOptionsSchema> & { operator?: string | undefined },
  context: OperatorContext,
): ServerOperations | undefined {
  if (options.server === undefined) return undefined;
  if (options.store !== undefined || options.config !== undefined)
    throw new OperatorUsageError(
      "--server works on the server's store: drop --store and --config, or drop --server.",
    );
  if (options.operator !== undefined)
    throw new OperatorUsageError(
      `--operator has no effect with --server: the server records the operator of the token in $${OPERATOR_TOKEN_ENV}. Drop --operator.`,
    );
  const token = context.env[OPERATOR_TOKEN_ENV]?.trim();
  if (!token)
    throw new OperatorUsageError(
      `--server needs an operator token in $${OPERATOR_TOKEN_ENV} (nvo_…; an admin creates one with \`novarch operators create\`).`,
    );
  let client: RemoteOperatorClient;
  try {
    client = new RemoteOperatorClient({ url: options.server, token });
  } catch (error) {
    throw new OperatorUsageError(`--server: ${errorMessage(error)}`);
  }
  return {
    client,
    call: async (work) => {
      try {
        return await work(client);
      } catch (error) {
        throw asOperatorError(error);
      }
    },
  };
}

/** A server client and the wrapper that turns its errors into the CLI's. */
export interface ServerOperations {
  client: RemoteOperatorClient;
  call<T>(work: (client: RemoteOperatorClient) => Promise<T>): Promise<T>;
}

function asOperatorError(error: unknown): unknown {
  if (!(error instanceof NovarchServerError) || error.status === undefined) return error;
  const message = error.detail ?? error.message;
  if (error.status === 409) return new OperationRefusedError(message);
  if (error.status >= 400 && error.status < 500)
    return new OperatorUsageError(`${message} (HTTP ${error.status})`);
  return error;
}

/** Resolves the store from the flags and runs `work` on it, closing it afterwards. */
export async function onStore<T>(
  options: z.output<typeof GlobalOptionsSchema>,
  context: OperatorContext,
  work: (store: NovarchDatabaseStore, location: ResolvedStorePath) => Promise<T>,
): Promise<T> {
  const location = await resolveStorePath(options, {
    env: context.env,
    cwd: context.cwd,
    homeDirectory: context.homeDirectory,
  });
  return withOperatorStore(location, (store) => work(store, location));
}
