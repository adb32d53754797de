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

/** A stable 32-bit hash of a case name (FNV-1a over its UTF-8 bytes). */
export function nameHash(name: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(name, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

/**
 * The cases of shard `index` of `count`: the cases ordered by the hash of their name (ties by
 * name), then dealt round-robin, so the shards differ by at most one case, the split does not
 * depend on the order cases are written in, and every machine of a CI matrix computes the same
 * one. A case's repeats stay together (they are one case).
 */
export function shardOf<T extends { config: { name: string } }>(
  cases: readonly T[],
  index: number,
  count: number,
): T[] {
  const order = [...cases].sort(
    (a, b) => nameHash(a.config.name) - nameHash(b.config.name) || a.config.name.localeCompare(b.config.name),
  );
  const kept = new Set(order.filter((_, position) => position % count === index - 1));
  return cases.filter((testCase) => kept.has(testCase));
}

/** Filters, then shards (shardOf) what the filter and tags kept. */
export function selectCases(cases: readonly PreparedCase[], selection: CaseSelection): PreparedCase[] {
  const matches = selection.filter ? nameMatcher(selection.filter) : () => true;
  const tags = selection.tags ?? [];
  const shard = selection.shard;
  const selected = cases.filter(
    (testCase) =>
      matches(testCase.config.name) &&
      (!tags.length || (testCase.config.tags ?? []).some((tag) => tags.includes(tag))),
  );
  return shard ? shardOf(selected, shard.index, shard.count) : selected;
}
