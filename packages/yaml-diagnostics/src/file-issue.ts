/** One problem found in a file, located: what `file:line:col  path: message` prints. */
export interface FileIssue {
  /** Absolute path of the file the problem is in. */
  file: string;
  /** 1-based line, when the problem can be located. */
  line?: number;
  /** 1-based column, when the problem can be located. */
  column?: number;
  /** Field path as written in YAML, e.g. `tools[2].url`. Empty for the document root. */
  path: string;
  /** What is wrong. */
  message: string;
  /** How to fix it (did-you-mean, expected values, ...). */
  hint?: string;
}

/** Formats one issue as `file:line:col  path: message` with the hint on the next line. */
export function formatFileIssue(issue: FileIssue): string {
  const where = [issue.file, issue.line, issue.column].filter((part) => part !== undefined).join(':');
  const field = issue.path ? `${issue.path}: ` : '';
  const hint = issue.hint ? `\n    hint: ${issue.hint}` : '';
  return `${where}  ${field}${issue.message}${hint}`;
}

/** `1 problem` or `3 problems`, for the first line of a report. */
export function countProblems(issues: readonly unknown[]): string {
  return issues.length === 1 ? '1 problem' : `${issues.length} problems`;
}
