import { type FileIssue, formatFileIssue } from 'yaml-diagnostics';
import type { ExecutionResult } from './execution-result.js';

/**
 * Every error HoloDeck raises on purpose derives from HoloDeckError. User-caused errors
 * (bad config, missing credentials) say how to fix them; internal ones say "this is a bug".
 * The CLI maps each class to an exit code in one place (cli/exit-codes.ts).
 */
export class HoloDeckError extends Error {
  override name = 'HoloDeckError';
}

/** One problem found in an agent.yaml (or a file it references): `file:line:col  path: message`. */
export type ConfigIssue = FileIssue;

/** Formats one issue as `file:line:col  path: message (hint)`. */
export const formatConfigIssue: (issue: ConfigIssue) => string = formatFileIssue;

/** agent.yaml (or a file it names) is invalid. Carries every problem found, not just the first. */
export class ConfigError extends HoloDeckError {
  override name = 'ConfigError';
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
    super(`${count} in agent configuration:\n${issues.map(formatConfigIssue).join('\n')}`);
    this.issues = issues;
  }
}

/** Credentials required by the chosen auth provider are missing. Names each missing variable. */
export class CredentialError extends HoloDeckError {
  override name = 'CredentialError';
  readonly missing: readonly string[];

  constructor(authProvider: string, missing: readonly string[], hint: string) {
    super(
      `auth_provider "${authProvider}" needs ${missing.join(', ')} but ${missing.length === 1 ? 'it is' : 'they are'} not set. ${hint}`,
    );
    this.missing = missing;
  }
}

/**
 * The model API rejected the credentials during a run (HTTP 401/403). `holodeck test` stops at the
 * first such failure instead of failing every case one by one; the message names what to check.
 */
export class CredentialRejectedError extends HoloDeckError {
  override name = 'CredentialRejectedError';
  constructor(reason: string, caseName: string) {
    super(
      `the model API rejected the credentials in test case "${caseName}": ${reason}\nThe run was stopped there; nothing after it ran.`,
    );
  }
}

/** The agent process failed to start, died, or the run could not complete. */
export class AgentSessionError extends HoloDeckError {
  override name = 'AgentSessionError';
  /**
   * What the run did before it stopped (usage, cost, tool calls, partial text), when the backend
   * knows it: a run stopped by a timeout or Ctrl+C still spent tokens, and its report says so.
   */
  readonly partial: ExecutionResult | undefined;
  /**
   * Where it failed: `spawn` before the session started (the process did not come up: safe to
   * retry), `run` after (it may have had side effects: never repeated). Default `run`.
   */
  readonly phase: 'spawn' | 'run';

  constructor(
    message: string,
    options?: { cause?: unknown; partial?: ExecutionResult; phase?: 'spawn' | 'run' },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.partial = options?.partial;
    this.phase = options?.phase ?? 'run';
  }
}

/**
 * A command-line flag (or the library option behind it) has a value HoloDeck cannot use:
 * `--concurrency 0`, `--shard 3/2`, an `--output` folder that cannot be written. Names the flag.
 */
export class UsageError extends HoloDeckError {
  override name = 'UsageError';
  /** The flag, e.g. `--shard`. */
  readonly flag: string;
  readonly hint: string | undefined;

  constructor(flag: string, message: string, hint?: string) {
    super(`${flag}: ${message}${hint ? `\n    hint: ${hint}` : ''}`);
    this.flag = flag;
    this.hint = hint;
  }
}

/** The run was stopped by SIGINT or SIGTERM before its work was done. */
export class InterruptedError extends HoloDeckError {
  override name = 'InterruptedError';
}

/** The runtime needed to run the agent is missing (e.g. the bundled `claude` binary). */
export class RuntimeMissingError extends HoloDeckError {
  override name = 'RuntimeMissingError';
}

/**
 * A user's module (a function tool, a code grader) failed outside a tool call, e.g. its `close()`
 * threw at teardown: the user's code, named in the message, not a bug in HoloDeck.
 */
export class UserModuleError extends HoloDeckError {
  override name = 'UserModuleError';
}

/** A broken invariant of HoloDeck itself: a bug to report (exit 4, "rerun with --debug"). */
export class InternalError extends HoloDeckError {
  override name = 'InternalError';
}
