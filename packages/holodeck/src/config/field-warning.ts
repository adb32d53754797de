import type { FieldPath } from 'yaml-diagnostics';

/** A warning found by a startup rule; located like a FieldIssue. */
export interface FieldWarning {
  code: string;
  message: string;
  path: FieldPath;
}
