import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { diffLines } from 'novarch';
import type { ApprovalRequest } from '../backends/contract/index.js';
import type { ShownDiffLine } from './approval-view.js';

/**
 * For a `Write` over a file that exists: the line diff from what the file holds now (a relative
 * path is read from `workingDirectory`). Undefined for other tools, a new file, a file that cannot
 * be read, or a binary one: the approval then shows the content as new.
 */
export function existingFileDiff(
  request: ApprovalRequest,
  workingDirectory: string,
): ShownDiffLine[] | undefined {
  const { file_path: file, content } = request.arguments;
  if (request.toolName !== 'Write' || typeof file !== 'string' || typeof content !== 'string')
    return undefined;
  let before: string;
  try {
    const target = path.resolve(workingDirectory, file);
    if (!statSync(target).isFile()) return undefined;
    before = readFileSync(target, 'utf8');
  } catch {
    return undefined;
  }
  if (before.includes('\u0000')) return undefined;
  return diffLines(before, content);
}
