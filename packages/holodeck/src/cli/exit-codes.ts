import {
  AgentSessionError,
  ConfigError,
  CredentialError,
  CredentialRejectedError,
  InterruptedError,
  RuntimeMissingError,
  UsageError,
  UserModuleError,
} from '../errors.js';
import { JudgeError } from '../evals/judge/judge-error.js';
import { RecordingError } from '../recording/recording-error.js';
import { RunReportError } from '../runner/report/run-report-error.js';

/** Exit codes of every holodeck command: the one table (`--help` and the README are made from it). */
export const ExitCode = {
  ok: 0,
  /** `holodeck test`: some test cases failed or errored. */
  testsFailed: 1,
  /** Invalid agent.yaml or flag, missing or rejected credentials, missing runtime. */
  configuration: 2,
  /** The agent ran and failed (API error, crash, max_turns, invalid structured output). */
  execution: 3,
  /** `holodeck ingest`: some files could not be parsed; the others were indexed. */
  ingestIncomplete: 5,
  /** An unexpected internal error (InternalError, or an error nothing classified): a bug. */
  internal: 4,
  /**
   * Stopped by SIGINT (Ctrl+C) or SIGTERM, or a chat on a terminal by SIGHUP (the terminal closed);
   * `test` still wrote its report and saved the run.
   */
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** What each exit code means, in the order `--help` and the README list them. */
export const EXIT_CODE_MEANINGS: readonly { code: ExitCodeValue; meaning: string }[] = [
  { code: ExitCode.ok, meaning: 'success (test: every selected case passed)' },
  {
    code: ExitCode.testsFailed,
    meaning:
      'test: some cases failed or errored, or the run stopped at its --max-cost budget; judge calibrate: a judge metric is below its min_kappa',
  },
  {
    code: ExitCode.configuration,
    meaning:
      'configuration, flag, credential or installation error (nothing was run; test also stops here when the API rejects the credentials)',
  },
  {
    code: ExitCode.execution,
    meaning:
      "chat: the agent run failed (API error, crash, max_turns, invalid structured output); any command: a user's tool module failed at teardown (its close() threw)",
  },
  {
    code: ExitCode.internal,
    meaning: 'internal error: a bug in holodeck (rerun with --debug and report it)',
  },
  {
    code: ExitCode.ingestIncomplete,
    meaning: 'ingest: some files could not be parsed (named on stderr); the others were indexed',
  },
  {
    code: ExitCode.interrupted,
    meaning:
      'interrupted by SIGINT (Ctrl+C) or SIGTERM, or a terminal chat by SIGHUP (test: the report is written and the run saved)',
  },
];

/** The `Exit codes:` section of every command's `--help`. */
export function exitCodesHelp(): string {
  const width = Math.max(...EXIT_CODE_MEANINGS.map((entry) => String(entry.code).length));
  const rows = EXIT_CODE_MEANINGS.map((entry) => `  ${String(entry.code).padStart(width)}  ${entry.meaning}`);
  return `\nExit codes:\n${rows.join('\n')}`;
}

/** The one place errors become exit codes. */
export function exitCodeFor(error: unknown): ExitCodeValue {
  if (
    error instanceof ConfigError ||
    error instanceof CredentialError ||
    error instanceof CredentialRejectedError ||
    error instanceof RuntimeMissingError ||
    error instanceof UsageError ||
    // A bad --baseline or report file: nothing was run.
    error instanceof RunReportError ||
    // A broken recording file, or one of another agent: nothing was run.
    error instanceof RecordingError ||
    // Judge credentials missing: nothing was run.
    error instanceof JudgeError
  ) {
    return ExitCode.configuration;
  }
  if (error instanceof InterruptedError) return ExitCode.interrupted;
  if (error instanceof AgentSessionError) return ExitCode.execution;
  // The user's module failed (its close() threw): the message names it; not a bug of holodeck.
  if (error instanceof UserModuleError) return ExitCode.execution;
  return ExitCode.internal;
}
