import {
  NovarchConfigError,
  NovarchEnvironmentError,
  NovarchError,
  OperationRefusedError,
  OperatorUsageError,
  RulesError,
} from '../errors.js';
import { IdentityError } from '../identity/identity-error.js';
import { StoreUrlError } from '../store/parse-store-url.js';

/** Exit codes of every `novarch` command (documented in --help and the README). */
export const ExitCode = {
  ok: 0,
  /** A bug, or a store that could not be read or written. */
  internal: 1,
  /** Bad flags, an unknown hold or session id, an invalid configuration, no store at the path. */
  usage: 2,
  /**
   * The operation was refused: the hold was already decided, or nothing waits on it (abandoned or
   * expired), the session was already killed.
   */
  refused: 3,
  /**
   * `novarch rules test`: decisions would change under the tested rules, or some could not be
   * re-judged (LLM rules without --with-judge); `rules calibrate`: some labelled actions of LLM
   * rules could not be re-judged. Not 1, which stays "something went wrong".
   */
  changes: 4,
  /**
   * `novarch audit verify`: an audit chain is broken (a record or link edited, deleted, inserted
   * or reordered outside Novarch), or an export's signature does not hold.
   */
  tampered: 5,
} as const;

/** One of the documented exit codes. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** The exit codes as `--help` and the README show them. */
export const EXIT_CODES_HELP = `
Exit codes:
  0  success
  1  internal error, or the store could not be read or written (rerun with --debug)
  2  usage or configuration error: bad flags, unknown hold or session id (the closest ids are
     listed), an invalid --config file, no store at the resolved path
  3  refused: the hold was already decided, or no agent waits on it (abandoned, or past its
     deadline: --force closes it), the session was already killed
  4  rules test: decisions would change, or some were not re-judged (LLM rules);
     rules calibrate: some labelled actions of LLM rules were not re-judged
  5  audit verify: the audit trail was changed outside Novarch (a record or link edited,
     deleted, inserted or reordered), or an export's signature does not hold

Store: --store FILE, else store.path of --config FILE, else $NOVARCH_STORE,
       else ~/.novarch/novarch.db`;

/** The one place errors become exit codes. */
export function exitCodeFor(error: unknown): ExitCodeValue {
  if (error instanceof OperationRefusedError) return ExitCode.refused;
  if (
    error instanceof OperatorUsageError ||
    error instanceof IdentityError ||
    error instanceof StoreUrlError ||
    error instanceof NovarchConfigError ||
    error instanceof NovarchEnvironmentError ||
    error instanceof RulesError
  ) {
    return ExitCode.usage;
  }
  // A store that cannot be read or written (NovarchStoreError), or a bug.
  return ExitCode.internal;
}

/** True for errors Novarch raised on purpose: their message says what to do, no "this is a bug". */
export function isExpectedError(error: unknown): boolean {
  return error instanceof NovarchError;
}
