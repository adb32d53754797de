import { type FieldPath, formatFieldPath, type LoadedAgent } from '../config/index.js';
import type { ConfigIssue } from '../errors.js';
import type { CaseSource } from './prepared-suite.js';

/** Where a default metric (evaluations.metrics) is. */
export const DEFAULTS_PATH = ['evaluations', 'metrics'];

/** agent.yaml itself as a source: problems of its top-level fields. */
export function agentSourceOf(agent: LoadedAgent): CaseSource {
  return {
    file: agent.file,
    path: [],
    ...(agent.locate ? { locate: agent.locate } : {}),
  };
}

/** An issue at `field` below `source`'s path, with its line and column where they are known. */
export function issueAt(source: CaseSource, field: FieldPath, message: string, hint?: string): ConfigIssue {
  const fieldPath = [...source.path, ...field];
  const position = source.locate?.(fieldPath);
  return {
    file: source.file,
    ...(position ? { line: position.line, column: position.column } : {}),
    path: formatFieldPath(fieldPath),
    message,
    ...(hint ? { hint } : {}),
  };
}
