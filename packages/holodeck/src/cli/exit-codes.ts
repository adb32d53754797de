import { AgentSessionError, ConfigError, CredentialError, RuntimeMissingError } from '../errors.js';
import { JudgeError } from '../evals/judge/judge-error.js';
import { RunReportError } from '../runner/report/run-report-error.js';

/** Exit codes of every holodeck command (documented in the README). */
export const ExitCode = {
  ok: 0,
  /** An unexpected internal error: a bug. */
  internal: 1,
  /** Invalid agent.yaml, missing credentials, or missing runtime: nothing was run. */
  configuration: 2,
  /** `holodeck test`: some test cases failed or errored. */
  testsFailed: 1,
  /** The agent ran and failed (API error, crash, max_turns, invalid structured output). */
  execution: 3,
  /** `holodeck test`: the run was aborted (interrupted, or the runtime broke down). */
  aborted: 3,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** The one place errors become exit codes. */
export function exitCodeFor(error: unknown): ExitCodeValue {
  if (
    error instanceof ConfigError ||
    error instanceof CredentialError ||
    error instanceof RuntimeMissingError ||
    // A bad --baseline or report file, or judge credentials missing: nothing was run.
    error instanceof RunReportError ||
    error instanceof JudgeError
  ) {
    return ExitCode.configuration;
  }
  if (error instanceof AgentSessionError) return ExitCode.execution;
  return ExitCode.internal;
}
