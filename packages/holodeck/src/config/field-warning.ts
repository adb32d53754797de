import type { FieldPath } from 'yaml-diagnostics';
import type { WarningCode } from './warning-code.js';

/** A warning found by a startup rule; located like a FieldIssue. */
export interface FieldWarning {
  code: WarningCode;
  message: string;
  path: FieldPath;
}
