import { type FileIssue, formatFileIssue as formatSharedFileIssue } from 'yaml-diagnostics';
import type { Citations } from './model/records.js';
import { NovarchError } from './novarch-error.js';

export { NovarchEnvironmentError, NovarchError } from './novarch-error.js';

/** One problem found in a rules file or a Novarch configuration file. */
export type NovarchFileIssue = FileIssue;

/** Formats one issue as `file:line:col  path: message`, the hint on the next line. */
export const formatFileIssue: (issue: NovarchFileIssue) => string = formatSharedFileIssue;

function describeIssues(what: string, issues: readonly NovarchFileIssue[]): string {
  const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
  return `${count} in ${what}:\n${issues.map(formatFileIssue).join('\n')}`;
}

/** A rules file is invalid. Carries every problem found, not just the first. */
export class RulesError extends NovarchError {
  override name = 'RulesError';
  readonly issues: readonly NovarchFileIssue[];

  constructor(issues: readonly NovarchFileIssue[]) {
    const files = new Set(issues.map((issue) => issue.file)).size;
    super(describeIssues(files > 1 ? 'rules files' : 'rules file', issues));
    this.issues = issues;
  }
}

/** The Novarch configuration file is invalid. Carries every problem found, not just the first. */
export class NovarchConfigError extends NovarchError {
  override name = 'NovarchConfigError';
  readonly issues: readonly NovarchFileIssue[];

  constructor(issues: readonly NovarchFileIssue[]) {
    super(describeIssues('Novarch configuration', issues));
    this.issues = issues;
  }
}

/** What a NovarchKillError is built from. */
export interface NovarchKillErrorOptions {
  sessionId: string;
  /** The action whose verdict killed the session; absent for an operator kill or a timeout. */
  actionId?: string;
  citations: Citations;
}

/**
 * The governed session was killed (a judge kill, an operator kill, a hold that timed out or was
 * skipped). Thrown by `raiseIfKilled()` after the query loop, or from a decorated tool's body.
 */
export class NovarchKillError extends NovarchError {
  override name = 'NovarchKillError';
  readonly sessionId: string;
  readonly actionId?: string;
  readonly citations: Citations;

  constructor(options: NovarchKillErrorOptions) {
    const rules =
      options.citations.ruleIds.length > 0 ? ` [rules: ${options.citations.ruleIds.join(', ')}]` : '';
    const action = options.actionId === undefined ? '' : ` at action ${options.actionId}`;
    super(`Novarch killed session ${options.sessionId}${action}: ${options.citations.rationale}${rules}`);
    this.sessionId = options.sessionId;
    if (options.actionId !== undefined) this.actionId = options.actionId;
    this.citations = options.citations;
  }
}

/**
 * The operator asked for something the CLI cannot do as given: a bad flag value, an unknown hold
 * or session id, a store that does not exist. The message says what to type instead (exit 2).
 */
export class OperatorUsageError extends NovarchError {
  override name = 'OperatorUsageError';
}

/**
 * The operation was understood and refused: the hold was already decided or nothing waits on it,
 * the session already killed. The message says what the stored state is; nothing was changed (exit 3).
 */
export class OperationRefusedError extends NovarchError {
  override name = 'OperationRefusedError';
}
