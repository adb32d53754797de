import { UsageError } from '../errors.js';
import type { PreparedCase } from './prepare-suite.js';

/** Which cases to run: `--filter`, `--tag`, `--shard i/n`. */
export interface CaseSelection {
  /** A name pattern: `*` matches any run of characters; without `*`, any name containing it. */
  filter?: string;
  /** Run cases carrying at least one of these tags. */
  tags?: readonly string[];
  /** `{index: i, count: n}` from `--shard i/n` (1-based). */
  shard?: { index: number; count: number };
}

/** Parses `--shard i/n`. */
export function parseShard(text: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new UsageError('--shard', `invalid shard "${text}"`, 'use i/n with 1 ≤ i ≤ n, e.g. --shard 2/4');
  }
  return { index, count };
}

function nameMatcher(filter: string): (name: string) => boolean {
  if (!filter.includes('*')) return (name) => name.includes(filter);
  const escaped = filter.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`^${escaped.join('.*')}$`);
  return (name) => pattern.test(name);
}

/**
 * Filters, then shards: the shard split is over the suite's declaration order (case k goes to
 * shard k mod n), so every machine of a CI matrix computes the same split.
 */
export function selectCases(cases: readonly PreparedCase[], selection: CaseSelection): PreparedCase[] {
  const matches = selection.filter ? nameMatcher(selection.filter) : () => true;
  const tags = selection.tags ?? [];
  const shard = selection.shard;
  return cases.filter(
    (testCase) =>
      matches(testCase.config.name) &&
      (!tags.length || (testCase.config.tags ?? []).some((tag) => tags.includes(tag))) &&
      (!shard || testCase.index % shard.count === shard.index - 1),
  );
}
