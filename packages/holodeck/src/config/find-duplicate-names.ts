import type { FieldIssue } from './field-issue.js';
import { isRecord } from './raw-value.js';

/**
 * Tool names and test case names must be unique. Reported at the second use, pointing back at the
 * first. Runs on raw data so the check happens even when other entries are invalid.
 */
export function findDuplicateNames(data: Record<string, unknown>): FieldIssue[] {
  return [...duplicatesIn(data, 'tools', 'tool'), ...duplicatesIn(data, 'test_cases', 'test case')];
}

function duplicatesIn(
  data: Record<string, unknown>,
  key: 'tools' | 'test_cases',
  noun: string,
): FieldIssue[] {
  const list = data[key];
  if (!Array.isArray(list)) return [];
  const firstIndex = new Map<string, number>();
  const issues: FieldIssue[] = [];
  list.forEach((entry: unknown, index) => {
    if (!isRecord(entry) || typeof entry.name !== 'string') return;
    const first = firstIndex.get(entry.name);
    if (first === undefined) {
      firstIndex.set(entry.name, index);
      return;
    }
    issues.push({
      path: [key, index, 'name'],
      message: `duplicate ${noun} name "${entry.name}"; ${key}[${first}] already uses it`,
      hint: `${noun} names must be unique: rename one of them`,
    });
  });
  return issues;
}
