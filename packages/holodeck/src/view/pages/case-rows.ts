import type { ViewCase } from '../view-data.js';
import type { CaseQuery, CaseSortKey } from './page-route.js';

export type ViewCaseStatus = 'passed' | 'failed' | 'errored' | 'interrupted';

/** One status per case, as the terminal summary counts them. */
export function statusOf(testCase: ViewCase): ViewCaseStatus {
  if (testCase.interrupted) return 'interrupted';
  if (testCase.errored) return 'errored';
  return testCase.passed ? 'passed' : 'failed';
}

/** Attempts disagree: some passed and some did not. */
export function isFlaky(testCase: ViewCase): boolean {
  const passes = testCase.attempts.filter((attempt) => attempt.passed).length;
  return passes > 0 && passes < testCase.attempts.length;
}

/** Sum of the attempts' costs; null when one is unknown. */
export function caseCost(testCase: ViewCase): number | null {
  let total = 0;
  for (const attempt of testCase.attempts) {
    if (attempt.cost_usd === null) return null;
    total += attempt.cost_usd;
  }
  return total;
}

const STATUS_ORDER: Record<ViewCaseStatus, number> = { errored: 0, failed: 1, interrupted: 2, passed: 3 };

function sortValue(testCase: ViewCase, index: number, key: CaseSortKey): number | string {
  switch (key) {
    case 'suite':
      return index;
    case 'name':
      return testCase.name.toLowerCase();
    case 'status':
      return STATUS_ORDER[statusOf(testCase)] * 2 + (isFlaky(testCase) ? 0 : 1);
    case 'score':
      return testCase.score;
    case 'attempts':
      return testCase.pass_rate;
    case 'duration':
      return testCase.duration_ms;
    case 'cost':
      return caseCost(testCase) ?? Number.POSITIVE_INFINITY;
  }
}

/** Every distinct tag of the cases, sorted. */
export function tagsOf(cases: readonly ViewCase[]): string[] {
  return [...new Set(cases.flatMap((testCase) => testCase.tags))].sort();
}

/** The cases the query keeps, in its order (ties keep suite order). */
export function selectCaseRows(cases: readonly ViewCase[], query: CaseQuery): ViewCase[] {
  const text = query.text.trim().toLowerCase();
  const kept = cases
    .map((testCase, index) => ({ testCase, index }))
    .filter(({ testCase }) => {
      if (
        query.status === 'flaky'
          ? !isFlaky(testCase)
          : query.status !== 'all' && statusOf(testCase) !== query.status
      )
        return false;
      if (query.tag && !testCase.tags.includes(query.tag)) return false;
      return (
        !text || testCase.name.toLowerCase().includes(text) || testCase.input.toLowerCase().includes(text)
      );
    });
  const direction = query.descending ? -1 : 1;
  kept.sort((a, b) => {
    const left = sortValue(a.testCase, a.index, query.sort);
    const right = sortValue(b.testCase, b.index, query.sort);
    if (left < right) return -direction;
    if (left > right) return direction;
    return a.index - b.index;
  });
  return kept.map(({ testCase }) => testCase);
}
